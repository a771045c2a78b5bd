// `import OSLog` gives what `import os` gives: Logger, OSLog, OSLogType, os_log and the
// message types, as on Apple's platforms (OSLogStore, reading the log back, is not provided).
@_exported import os
