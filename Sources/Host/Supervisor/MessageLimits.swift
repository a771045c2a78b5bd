/// The budgets on what an extension process may send the host unasked (see `MessageBudget`);
/// ``HostConfiguration/messageLimits``.
public struct MessageLimits: Sendable, Hashable {
    /// Bytes of log and error messages per activation (counted from its request).
    public var logBytesPerActivation = 128 << 10
    /// Bytes of log and error messages per minute.
    public var logBytesPerMinute = 512 << 10
    /// A longer log or error message is cut to this many bytes.
    public var logMessageBytes = 4096
    /// Reload requests per second and per activation; the rest are coalesced.
    public var reloadsPerSecond = 10
    /// Diagnostics per second; the rest are dropped.
    public var diagnosticsPerSecond = 20
    /// Calls the sandbox denies told per second (`sandbox.denied`); the rest are denied and
    /// counted (`messages.throttled`, and the exit's `denials`).
    public var deniedCallsPerSecond = 20
    /// Other frames (requests) at once: a burst this large passes.
    public var requestBurst = 1000
    /// Other frames per second after a burst; faster, the process is killed (`resource`).
    public var requestsPerSecond = 200
    /// Frames dropped or coalesced (logs over their budget, reloads and diagnostics past their
    /// rates) at once: a burst this large is only counted.
    public var droppedBurst = 60_000
    /// Frames dropped or coalesced per second after that burst; faster, the process is killed
    /// (`resource`): each costs the host's loop its decoding however little it keeps of it.
    public var droppedPerSecond = 2_000
    /// Bytes of frames of every kind at once: a burst this large passes (a real extension
    /// sends a few MiB a minute at most: a timeline reply is at most 1 MiB).
    public var inboundBurstBytes = 256 << 20
    /// Bytes of frames per second after that burst; faster, the process is killed (`resource`):
    /// each byte costs the host's loop its reading and decoding, whatever it keeps, and frames
    /// the host drops are counted only by number (a megabyte each is as cheap to send as a byte).
    public var inboundBytesPerSecond = 32 << 20
    /// Background tasks not ended or whose events wait, per session: a `createTask` past it is
    /// refused (a task created and cancelled at once stays in the journal while its event waits).
    public var sessionTasks = 1000
    /// What a session's tasks not ended or whose events wait may hold in requests and
    /// descriptions (bytes in a frame, counted as journaled): a `createTask` past it is refused,
    /// so that the list of a session's tasks (`getAllTasks`, a relaunch's `sessionAttached`),
    /// with their responses and errors, fits in one frame. (It does at these defaults of this
    /// and ``sessionTasks``; raised, a list may not.)
    public var sessionTaskBytes = 512 << 10
    /// Background sessions an app may hold in the journal at once (those with tasks or events,
    /// or attached now); past it a new identifier's session is invalidated (`tooManySessions`).
    public var sessionsPerApp = 64
    /// Inline tasks created and not yet ended, per process; over it the process is killed.
    public var inlineTasks = 256
    /// What a process's inline tasks not ended may hold in requests (bytes in a frame): a
    /// `createTask` past it is refused — the host keeps each request, body included, until
    /// its task ends or the process does.
    public var inlineTaskBytes = 4 << 20

    /// What a log or error message counts toward its budgets at least, whatever its text: each
    /// is an event line of its own (a flood of empty messages is not free).
    public static let minimumLogBytes = 64

    /// A `Logger`'s subsystem or category longer than this is cut in the event log.
    public static let loggerNameBytes = 256

    /// Any other string of an extension's in an event (a task's URL or description, a
    /// diagnostic's message) longer than this is cut in the event log.
    public static let fieldBytes = 4096

    /// What an event caused by an extension's request keeps of each of its texts once the
    /// process's log budget of the minute is spent (``logBytesPerMinute``).
    public static let shortFieldBytes = 256

    /// `text`, an extension's, as an event carries it: cut to `limit` (``fieldBytes``).
    static func field(_ text: String, to limit: Int = fieldBytes) -> String {
        MessageBudget.cut(text, to: limit)
    }

    public init() {}
}
