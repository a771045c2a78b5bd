import Dispatch
import SandglassIPC
import Synchronization

/// `WidgetCenter.getCurrentConfigurations`: asks the host which of the extension's widgets are
/// on screen, with their configurations, and makes each configuration's intent.
final class CurrentConfigurations: RuntimeService {
    static let shared: CurrentConfigurations = {
        let service = CurrentConfigurations()
        RuntimeServices.register(service)
        return service
    }()

    private let requests = HostRequests(deadline: 10)
    private let queue = DispatchQueue(label: "sandglass.current-configurations")

    /// Why the configurations could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func handle(_ message: Message, runtime: any RuntimeConnection) -> Bool {
        switch message {
        case .currentConfigurations, .error:
            requests.fulfil(message, from: runtime)
        default:
            false
        }
    }

    /// Asks the host of the runtime whose request the caller serves (else the process's).
    func fetch(_ completion: @escaping @Sendable (Result<[WidgetInfo], any Error>) -> Void) {
        let runtime = ExtensionRuntime.active
        queue.async { [self] in
            let reply = requests.send(on: runtime) { .currentConfigurationsRequest($0) }
            switch reply {
            case .success(.currentConfigurations(_, let widgets)):
                completion(.success(widgets.compactMap { info(for: $0, runtime: runtime) }))
            case .success(let other):
                completion(.failure(Failure(description: "the host answered getCurrentConfigurations with \(other.type)")))
            case .failure(.notUnderHost):
                completion(.failure(Failure(description: "not running under the Sandglass host: there are no widgets on screen")))
            case .failure(.refused(let why)):
                completion(.failure(Failure(description: "the host refused getCurrentConfigurations: \(why)")))
            case .failure(.timedOut(let seconds)):
                completion(.failure(Failure(description: "the host did not answer getCurrentConfigurations within \(Int(seconds)) s")))
            case .failure(.connectionEnded):
                completion(.failure(Failure(description: "the connection to the host ended before it answered getCurrentConfigurations")))
            }
        }
    }

    private func info(for payload: WidgetConfigurationPayload, runtime: ExtensionRuntime?) -> WidgetInfo? {
        guard let family = WidgetFamily(rawValue: payload.family) else { return nil }
        let widget = runtime?.widgets.first { $0.kind == payload.kind }
        let intent = widget?.provider.makeIntent?(payload.intent, payload.kind)
        return WidgetInfo(kind: payload.kind, family: family, intent: intent)
    }
}

extension WidgetCenter {
    /// The app's widgets on screen, with their kinds, families and configurations. The
    /// completion runs on a background queue.
    public func getCurrentConfigurations(_ completion: @escaping @Sendable (Result<[WidgetInfo], any Error>) -> Void) {
        CurrentConfigurations.shared.fetch(completion)
    }

    /// The app's widgets on screen, with their kinds, families and configurations.
    @concurrent public func currentConfigurations() async throws -> [WidgetInfo] {
        try await withCheckedThrowingContinuation { continuation in
            getCurrentConfigurations { continuation.resume(with: $0) }
        }
    }
}
