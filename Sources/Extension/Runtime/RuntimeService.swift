import SandglassIPC
import Synchronization

/// A part of the SDK that serves messages other than the timeline activations: background URL
/// sessions and tasks, location, Today updates. Services register once (at startup or on first
/// use); the runtime offers each such message to them in order, on its reader thread — so a
/// service must not block; it hands work to its own queue.
@_spi(SandglassRuntime)
public protocol RuntimeService: AnyObject, Sendable {
    /// Handles `message` when it is this service's, and returns whether it was.
    func handle(_ message: Message, runtime: any RuntimeConnection) -> Bool
}

/// What a service may do with the connection to the host.
@_spi(SandglassRuntime)
public protocol RuntimeConnection: AnyObject, Sendable {
    /// Sends a message to the host.
    func send(_ message: Message)
    /// Sends a log line to the host's event log.
    func log(_ level: LogLevel, _ message: String)
    /// The host's `welcome`, once it arrived.
    var welcome: Welcome? { get }
    /// The last location authorization the host sent on this connection; `nil` before the first.
    var locationAuthorization: LocationAuthorizationPayload? { get }
    /// True for a runtime served inside another program (the host's in-process tests), beside
    /// the program's own: a service keeps its state apart for each such connection.
    var isInProcess: Bool { get }
    /// The variables the host set for an in-process runtime (what an extension's process reads
    /// from its environment: `SANDGLASS_LOG_PRIVATE`, `SANDGLASS_APP_GROUPS` …); empty for the
    /// process's own runtime.
    var environment: [String: String] { get }
}

/// The registered services and the connection of this process.
@_spi(SandglassRuntime)
public enum RuntimeServices {
    private static let services = Mutex<[any RuntimeService]>([])
    private static let lastLocationAuthorization = Mutex<LocationAuthorizationPayload?>(nil)

    /// Adds `service`; messages it handles stop reaching later ones.
    public static func register(_ service: any RuntimeService) {
        services.withLock { $0.append(service) }
    }

    /// The last location authorization the host sent this process's runtime (it sends one
    /// after `welcome` and one on every change), `nil` before the first. A service that
    /// registers late reads it here after registering, so that it misses no change. (An
    /// in-process runtime's is its connection's ``RuntimeConnection/locationAuthorization``.)
    public static var locationAuthorization: LocationAuthorizationPayload? {
        lastLocationAuthorization.withLock { $0 }
    }

    static func noteLocationAuthorization(_ authorization: LocationAuthorizationPayload) {
        lastLocationAuthorization.withLock { $0 = authorization }
    }

    /// Removes `service` (an in-process runtime's, once that runtime is gone).
    public static func unregister(_ service: any RuntimeService) {
        services.withLock { $0.removeAll { $0 === service } }
    }

    /// The service of type `S` of the in-process runtime `connection`: made with `make` and
    /// registered the first time it is asked for; the services of runtimes gone since are
    /// unregistered. (The process's own runtime keeps its services in their `shared` instances.)
    public static func service<S: RuntimeService>(
        _ type: S.Type, of connection: any RuntimeConnection, make: (any RuntimeConnection) -> S
    ) -> S {
        let key = PerRuntimeKey(runtime: ObjectIdentifier(connection), service: ObjectIdentifier(type))
        let (service, isNew, gone) = perRuntime.withLock { entries -> (S, Bool, [any RuntimeService]) in
            let gone = entries.values.filter { $0.owner == nil }.map(\.service)
            entries = entries.filter { $0.value.owner != nil }
            if let existing = entries[key]?.service as? S { return (existing, false, gone) }
            let made = make(connection)
            entries[key] = PerRuntimeService(owner: connection, service: made)
            return (made, true, gone)
        }
        gone.forEach(unregister)
        if isNew { register(service) }
        return service
    }

    private struct PerRuntimeKey: Hashable {
        let runtime: ObjectIdentifier
        let service: ObjectIdentifier
    }

    private final class PerRuntimeService: Sendable {
        weak let owner: (any RuntimeConnection)?
        let service: any RuntimeService

        init(owner: any RuntimeConnection, service: any RuntimeService) {
            self.owner = owner
            self.service = service
        }
    }

    private static let perRuntime = Mutex<[PerRuntimeKey: PerRuntimeService]>([:])

    /// The connection to the host, `nil` when not running under it.
    public static var connection: (any RuntimeConnection)? {
        ExtensionRuntime.active
    }

    /// Offers `message` to each service; false when none took it.
    static func dispatch(_ message: Message, runtime: ExtensionRuntime) -> Bool {
        for service in services.withLock({ $0 }) where service.handle(message, runtime: runtime) { return true }
        return false
    }
}

extension ExtensionRuntime: RuntimeConnection {}
