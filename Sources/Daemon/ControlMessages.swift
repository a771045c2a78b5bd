/// One request on the control socket: a JSON object on one line, answered by one
/// ``ControlResponse`` line, then the connection closes.
///
/// ```json
/// {"command":"kill","bundle":"com.example.leaderboard.widget","reason":"chaos"}
/// ```
public struct ControlRequest: Codable, Sendable, Hashable {
    /// `status`, `reload`, `kill`, `visibility`, `location` or `clock`.
    public var command: String
    /// The extension the command is about (kill).
    public var bundle: String?
    /// The containing app the command is about (reload; nil: every app).
    public var app: String?
    /// A widget kind (reload, visibility).
    public var kind: String?
    /// The kill reason recorded (`chaos` unless said).
    public var reason: String?
    /// The command's argument: a visibility (`always`, `never`, …), a location, a clock step.
    public var value: String?

    public init(
        command: String, bundle: String? = nil, app: String? = nil, kind: String? = nil, reason: String? = nil,
        value: String? = nil
    ) {
        self.command = command
        self.bundle = bundle
        self.app = app
        self.kind = kind
        self.reason = reason
        self.value = value
    }
}

/// The answer to a ``ControlRequest``.
public struct ControlResponse: Codable, Sendable {
    /// Whether the command was carried out.
    public var ok: Bool
    /// A sentence for a person: what was done, or why not.
    public var message: String
    /// The daemon's state (`status`).
    public var status: DaemonStatus?

    public init(ok: Bool, message: String, status: DaemonStatus? = nil) {
        self.ok = ok
        self.message = message
        self.status = status
    }
}

/// What `sandglass ctl status` shows.
public struct DaemonStatus: Codable, Sendable {
    /// One installed extension.
    public struct Extension: Codable, Sendable {
        public var bundle: String
        /// Its live process, if any.
        public var pid: Int32?
        public var spawns: Int
        public var kills: Int
    }

    /// The daemon's own pid.
    public var pid: Int32
    /// Seconds since the daemon started (real time).
    public var uptimeSeconds: Double
    /// `real` or `virtual`.
    public var clock: String
    /// The run clock's time of the last event (ms).
    public var runTimeMs: Double
    public var extensions: [Extension]
    public var events: Int
    public var activations: [String: Int]
    public var kills: [String: Int]
    public var timelines: Int
    /// Session events in the journal not yet acknowledged by an extension.
    public var unacknowledgedEvents: Int
}
