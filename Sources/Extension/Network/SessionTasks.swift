/// The tasks of a session: those not completed, in the order they were made, and the
/// background ones by the host's identifier, for the life of the session.
///
/// No dictionary keyed by `Int` or `ObjectIdentifier`: in a new process the first dictionary of
/// a key type has the runtime look up the key's `Hashable` conformance, a scan of every
/// conformance of the binary (about 0.05 ms each) — on a relaunch, on the way to the first
/// delegate call. Tasks not completed are a few, kept in a list; identifiers key a dictionary
/// by their decimal `String`, whose conformance a new process has looked up already.
struct SessionTasks {
    /// Tasks not completed yet, in the order they were made.
    private(set) var live: [URLSessionTask] = []
    private var byIdentifier: [String: URLSessionTask] = [:]

    /// The background task with the host's `identifier`.
    subscript(identifier identifier: Int) -> URLSessionTask? {
        get { byIdentifier[String(identifier)] }
        set { byIdentifier[String(identifier)] = newValue }
    }

    /// Adds `task` to those not completed (once).
    mutating func insertLive(_ task: URLSessionTask) {
        if !live.contains(where: { $0 === task }) { live.append(task) }
    }

    /// Removes `task` from those not completed.
    mutating func removeLive(_ task: URLSessionTask) {
        live.removeAll { $0 === task }
    }
}
