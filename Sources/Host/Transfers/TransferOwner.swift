/// Whose turn a request takes on the host's transport (``ConcurrentTransfers``): an app, and
/// within it an extension's background downloads or one process's inline requests.
struct TransferOwner: Hashable, Sendable, CustomStringConvertible {
    /// The containing app's bundle identifier.
    let app: String
    /// `background BUNDLE` or `inline PID`.
    let name: String

    /// An extension's background downloads.
    static func background(app: String, bundle: String) -> TransferOwner { TransferOwner(app: app, name: "background \(bundle)") }

    /// One process's inline requests.
    static func inline(app: String, pid: Int32) -> TransferOwner { TransferOwner(app: app, name: "inline \(pid)") }

    var description: String { "\(app): \(name)" }
}
