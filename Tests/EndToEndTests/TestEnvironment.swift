import Foundation

/// The environment of this test process, read once. Swift Testing may call `setenv` while tests
/// run in parallel, and a read of `environ` racing it — Foundation's `Process.run()` reads it
/// unless given an environment — crashed the suite. Tests read this instead, and give it to
/// every process they start.
let testEnvironment = ProcessInfo.processInfo.environment
