import SandglassIPC
import Synchronization
@_spi(SandglassRuntime) import WidgetKit

/// The link of a runtime to the host's location service: sends the managers' requests and
/// hands the host's answers to every live manager. The process's runtime has one client, made
/// and registered as a runtime service when the first `CLLocationManager` is made; a runtime
/// served in-process beside it (the host's in-process tests) has its own, so that neither
/// hears the other's authorization or fixes.
final class LocationClient: RuntimeService {
    static let shared: LocationClient = {
        let client = LocationClient(owner: nil)
        // Registered before the authorization is first read, so no change is missed.
        RuntimeServices.register(client)
        return client
    }()

    /// The client for a manager made now: the in-process runtime's whose provider code runs
    /// here, else the process's.
    static func forActiveRuntime() -> LocationClient {
        guard let connection = RuntimeServices.connection, connection.isInProcess else { return shared }
        return RuntimeServices.service(LocationClient.self, of: connection) { LocationClient(owner: $0) }
    }

    /// The in-process runtime this client serves; nil: the process's runtime.
    private weak let owner: (any RuntimeConnection)?
    private let servesInProcessRuntime: Bool

    private init(owner: (any RuntimeConnection)?) {
        self.owner = owner
        servesInProcessRuntime = owner != nil
    }

    private struct Weak {
        weak var manager: CLLocationManager?
    }

    private let managers = Mutex<[Weak]>([])
    private let updating = Mutex(0)

    /// The authorization the host sent last; `nil` outside the host or before the first.
    var authorization: LocationAuthorizationPayload? {
        servesInProcessRuntime ? owner?.locationAuthorization : RuntimeServices.locationAuthorization
    }

    /// The connection its requests go to.
    private var connection: (any RuntimeConnection)? {
        servesInProcessRuntime ? owner : RuntimeServices.connection
    }

    /// Whether a message that came on `runtime` is this client's.
    private func serves(_ runtime: any RuntimeConnection) -> Bool {
        servesInProcessRuntime ? runtime === owner : !runtime.isInProcess
    }

    func attach(_ manager: CLLocationManager) {
        managers.withLock { list in
            list.removeAll { $0.manager == nil }
            list.append(Weak(manager: manager))
        }
    }

    func detach(_ manager: CLLocationManager, wasUpdating: Bool) {
        managers.withLock { list in list.removeAll { $0.manager == nil || $0.manager === manager } }
        if wasUpdating { stoppedUpdating() }
    }

    /// Sends `mode` to the host; false when not running under it.
    func request(_ mode: LocationRequestMode) -> Bool {
        guard let connection else {
            FileHandle.standardError.write(Data("CLLocationManager: not running under the Sandglass host; no location\n".utf8))
            return false
        }
        if mode == .start { updating.withLock { $0 += 1 } }
        connection.send(.locationRequest(mode))
        return true
    }

    /// A manager stopped updating; the host hears `stop` when none is updating any more.
    func stoppedUpdating() {
        let none = updating.withLock { count -> Bool in
            count = max(0, count - 1)
            return count == 0
        }
        if none { connection?.send(.locationRequest(.stop)) }
    }

    private var live: [CLLocationManager] {
        managers.withLock { $0.compactMap(\.manager) }
    }

    func handle(_ message: Message, runtime: any RuntimeConnection) -> Bool {
        guard serves(runtime) else { return false }
        switch message {
        case .locationAuthorization:
            for manager in live { manager.authorizationDidChange() }
        case .locationUpdate(let payloads):
            let locations = payloads.map { p in
                CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: p.latitude, longitude: p.longitude), altitude: p.altitude,
                    horizontalAccuracy: p.horizontalAccuracy, verticalAccuracy: p.verticalAccuracy,
                    timestamp: Date(timeIntervalSince1970: p.timestamp))
            }
            for manager in live { manager.receive(locations) }
        case .locationFailure(let code):
            let error: CLError.Code = code == .denied ? .denied : .locationUnknown
            for manager in live { manager.fail(error) }
        default:
            return false
        }
        return true
    }
}
