/// A background session the host offered this process before it made one (protocol 4.2): the
/// host's `sessionAttached` and the events after it, kept in order for the session the
/// `onBackgroundURLSessionEvents` handler re-creates — which then finds its tasks and events
/// without waiting for the host to answer `attachSession`.
///
/// An offer opens only while a handler runs for the identifier (the host offers once the
/// extension accepted its `backgroundEventsRequest`), and is withdrawn when the handler's
/// completion comes first: its files are removed, and the host, having no confirmation, keeps
/// the events for a later delivery.
struct SessionOffer: Sendable {
    /// What came for the session, each to be applied to it (they only enqueue on its delivery queue).
    var deliveries: [@Sendable (URLSession) -> Void] = []
    /// The files of `downloadFinished` events among them, made by the runtime in the container.
    var files: [String] = []

    /// Applies what came, in order, to `session`.
    func deliver(to session: URLSession) {
        for delivery in deliveries { delivery(session) }
    }

    /// Removes the files no session will take.
    func discard() {
        for file in files { Syscalls.removeFile(file) }
    }
}
