import SandglassIPC

/// What a configuration registered to take background URL-session events: with
/// `onBackgroundURLSessionEvents(matching:_:)` or `backgroundTask(.urlSession…)`.
struct BackgroundSessionHandler: Sendable {
    /// How the handler picks identifiers, as `hello` declares them.
    enum Matching: Sendable, Equatable {
        /// Exactly this identifier (`matching: String`, `.urlSession(_ identifier:)`).
        case identifier(String)
        /// A block decides (`matching:` a closure, `nil`, `.urlSession`, `.urlSession(matching:)`).
        case closure
    }

    let matching: Matching
    /// Whether the handler takes `identifier`; called on the main actor.
    let accepts: @MainActor @Sendable (String) -> Bool
    /// Runs the handler for `identifier` on the main actor; `finished` is called when the app
    /// calls its completion (or the action returns), possibly more than once.
    let run: @MainActor @Sendable (String, @escaping @Sendable () -> Void) -> Void

    /// Serves `backgroundEventsRequest`: on the main actor, the first handler whose matching
    /// takes the identifier runs, and the reply says whether one did (when none does, the host
    /// keeps the events queued). While the handler runs, `service` keeps a session the host
    /// offers for the identifier. The first call of the completion sends `eventsFinished`; a
    /// second is ignored, and logged.
    static func deliver(
        _ request: RequestID,
        identifier: String,
        to handlers: [BackgroundSessionHandler],
        runtime: any RuntimeConnection,
        service: NetworkService
    ) {
        MainThread.run {
            guard let handler = handlers.first(where: { $0.accepts(identifier) }) else {
                runtime.send(.backgroundEventsReply(request, accepted: false))
                return
            }
            service.handlerStarted(identifier)
            runtime.send(.backgroundEventsReply(request, accepted: true))
            let gate = CompletionGate()
            // Sessions the handler re-creates belong to this runtime (several may share a
            // process: the host's in-process tests).
            ExtensionRuntime.$serving.withValue(runtime as? ExtensionRuntime) {
                handler.run(identifier) {
                    guard gate.claim() else {
                        runtime.log(
                            .warning,
                            "the completion handler for background session '\(identifier)' "
                                + "was called a second time; the second call is ignored")
                        return
                    }
                    service.handlerFinished(identifier)
                    runtime.send(.eventsFinished(identifier: identifier))
                }
            }
        }
    }
}

/// Closures of Apple's `onBackgroundURLSessionEvents` signature, which are not `Sendable`:
/// they are only ever called on the main actor, where they were given.
private final class MainActorClosures: @unchecked Sendable {
    let matchingBlock: ((String) -> Bool)?
    let urlSessionEvent: (String, @escaping () -> Void) -> Void

    init(_ matchingBlock: ((String) -> Bool)?, _ urlSessionEvent: @escaping (String, @escaping () -> Void) -> Void) {
        self.matchingBlock = matchingBlock
        self.urlSessionEvent = urlSessionEvent
    }
}

extension BackgroundSessionHandler {
    /// `onBackgroundURLSessionEvents(matching:_:)`: `matchingString` names one identifier;
    /// otherwise `matchingBlock` decides, and `nil` takes every identifier.
    init(
        matchingString: String? = nil,
        matchingBlock: ((String) -> Bool)?,
        _ urlSessionEvent: @escaping (String, @escaping () -> Void) -> Void
    ) {
        let closures = MainActorClosures(matchingBlock, urlSessionEvent)
        if let matchingString {
            matching = .identifier(matchingString)
            accepts = { $0 == matchingString }
        } else {
            matching = .closure
            accepts = { closures.matchingBlock?($0) ?? true }
        }
        run = { identifier, finished in
            closures.urlSessionEvent(identifier, finished)
        }
    }

    /// `backgroundTask(_:action:)`: the action runs in a `Task`; its return is the completion.
    init<Request: Sendable, Response: Sendable>(
        _ task: BackgroundTask<Request, Response>,
        action: @escaping @concurrent @Sendable (Request) async -> Response
    ) {
        matching = task.matching
        accepts = { task.accepts($0) }
        run = { identifier, finished in
            let request = task.request(identifier)
            Task {
                _ = await action(request)
                finished()
            }
        }
    }
}
