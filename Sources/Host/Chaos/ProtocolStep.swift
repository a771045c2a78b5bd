/// A named step of the conversation between the host and an extension, where chaos testing
/// can SIGKILL the extension — or the host itself — at the exact moment it is reached (with
/// `SandglassTesting`):
///
/// ```swift
/// import SandglassTesting
///
/// await host.killAt(.completionSent, of: "com.example.downloader.widget")
/// await host.killAt(.acknowledgementJournaled, target: .host)   // a real host death
/// ```
public enum ProtocolStep: String, Sendable, Hashable, CaseIterable {
    /// The process was cloned and exec'd; it has not said hello yet.
    case spawned
    /// Its `hello` was read and `welcome` sent.
    case hello
    /// An activation's request (placeholder, snapshot, timeline, background events …) was
    /// written to its socket.
    case requestWritten
    /// A reply to a pending activation was read, before the activation ends.
    case replyRead
    /// A session event (`didFinishDownloadingTo`, `didCompleteWithError`) was written to it.
    case eventDelivered
    /// Its delegate is handling the delivered events: an `eventHandled` arrived, the
    /// completion handler is not called yet.
    case handlerRunning
    /// Its completion handler was called: `eventsFinished` was read, the acknowledgement is not
    /// yet in the journal.
    case completionSent
    /// The acknowledgement is committed to the journal; the log does not say so yet.
    case acknowledgementJournaled

    /// Whether the step belongs to the delivery of background session events.
    public var isDelivery: Bool {
        switch self {
        case .eventDelivered, .handlerRunning, .completionSent, .acknowledgementJournaled: true
        case .spawned, .hello, .requestWritten, .replyRead: false
        }
    }
}
