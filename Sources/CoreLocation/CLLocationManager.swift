import Dispatch
import SandglassIPC
import Synchronization

/// Where a widget gets its location, and what it may know about its authorization.
///
/// ```swift
/// final class LocationFetcher: NSObject, CLLocationManagerDelegate {
///     private let manager = CLLocationManager()
///     private var completion: ((CLLocation?) -> Void)?
///
///     func fetch(_ completion: @escaping (CLLocation?) -> Void) {
///         guard manager.isAuthorizedForWidgetUpdates else { return completion(nil) }
///         self.completion = completion
///         manager.delegate = self
///         manager.requestLocation()
///     }
///
///     func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
///         completion?(locations.last); completion = nil
///     }
///     func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
///         completion?(nil); completion = nil
///     }
/// }
/// ```
///
/// Under the Sandglass host, the host answers every request: a fix when the extension sets
/// `NSWidgetWantsLocation`, widget updates are authorized and the widget is in use;
/// `CLError(.denied)` when it is not authorized (or the key is missing); `CLError(.locationUnknown)`
/// when it is authorized but not in use. Delegate calls arrive on the main queue.
open class CLLocationManager: NSObject, @unchecked Sendable {
    private struct State {
        var toldAuthorization = false
        var wantsOneFix = false
        var updating = false
        var location: CLLocation?
    }

    private let state = Mutex(State())
    private let delegateLock = NSLock()
    private weak var weakDelegate: (any CLLocationManagerDelegate)?
    private let client: LocationClient

    /// How precise the fixes should be; the host's fixes carry their own accuracy.
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    /// Minimum movement, in metres, between updates.
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone

    /// A manager; its delegate hears the authorization once the delegate is set.
    public override init() {
        client = LocationClient.forActiveRuntime()
        super.init()
        client.attach(self)
    }

    deinit {
        client.detach(self, wasUpdating: state.withLock { $0.updating })
    }

    /// The object that receives locations, errors and authorization changes (held weakly).
    /// Setting it the first time tells it the current authorization, as the system does when a
    /// manager is created.
    open var delegate: (any CLLocationManagerDelegate)? {
        get { delegateLock.withLock { weakDelegate } }
        set {
            delegateLock.withLock { weakDelegate = newValue }
            let first = state.withLock { state -> Bool in
                guard newValue != nil, !state.toldAuthorization else { return false }
                state.toldAuthorization = true
                return true
            }
            if first { authorizationDidChange() }
        }
    }

    /// The containing app's authorization (extensions share it).
    open var authorizationStatus: CLAuthorizationStatus {
        client.authorization.flatMap { CLAuthorizationStatus(rawValue: Int32($0.status.rawValue)) } ?? .notDetermined
    }

    /// The app's authorization, the old class-method form.
    @available(*, deprecated, message: "Use the authorizationStatus property")
    open class func authorizationStatus() -> CLAuthorizationStatus {
        let authorization = LocationClient.forActiveRuntime().authorization
        return authorization.flatMap { CLAuthorizationStatus(rawValue: Int32($0.status.rawValue)) } ?? .notDetermined
    }

    /// Whether this widget may receive location: the app is authorized always, or when in use
    /// and the user extended that to widgets — and the extension sets `NSWidgetWantsLocation`.
    open var isAuthorizedForWidgetUpdates: Bool {
        guard let authorization = client.authorization else { return false }
        return authorization.widgetApproved
            && (authorization.status == .authorizedAlways || authorization.status == .authorizedWhenInUse)
    }

    /// Full accuracy: the host's fixes are what the run's position says.
    open var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }

    /// The most recent location this manager received.
    open var location: CLLocation? { state.withLock { $0.location } }

    /// Location Services are on.
    open class func locationServicesEnabled() -> Bool { true }

    /// Does nothing in an extension: only the containing app can ask the user (the run's
    /// `--location-auth` says what the user answered).
    open func requestWhenInUseAuthorization() {}

    /// Does nothing in an extension, as `requestWhenInUseAuthorization()`.
    open func requestAlwaysAuthorization() {}

    /// Asks for one location: the delegate gets `didUpdateLocations` or `didFailWithError`, once.
    open func requestLocation() {
        state.withLock { $0.wantsOneFix = true }
        if !client.request(.once) { fail(.denied) }
    }

    /// Asks for locations as they change, until `stopUpdatingLocation()`.
    open func startUpdatingLocation() {
        state.withLock { $0.updating = true }
        if !client.request(.start) { fail(.denied) }
    }

    /// Stops the updates `startUpdatingLocation()` asked for.
    open func stopUpdatingLocation() {
        let was = state.withLock { state -> Bool in
            defer { state.updating = false }
            return state.updating
        }
        if was { client.stoppedUpdating() }
    }

    // MARK: from the host

    var isUpdating: Bool { state.withLock { $0.updating } }

    func receive(_ locations: [CLLocation]) {
        let wanted = state.withLock { state -> Bool in
            guard state.wantsOneFix || state.updating else { return false }
            state.wantsOneFix = false
            if let last = locations.last { state.location = last }
            return true
        }
        guard wanted, !locations.isEmpty else { return }
        DispatchQueue.main.async { [self] in
            delegate?.locationManager(self, didUpdateLocations: locations)
        }
    }

    func fail(_ code: CLError.Code) {
        let wanted = state.withLock { state -> Bool in
            guard state.wantsOneFix || state.updating else { return false }
            state.wantsOneFix = false
            return true
        }
        guard wanted else { return }
        DispatchQueue.main.async { [self] in
            delegate?.locationManager(self, didFailWithError: CLError(code))
        }
    }

    func authorizationDidChange() {
        guard state.withLock({ $0.toldAuthorization }) else { return }
        DispatchQueue.main.async { [self] in
            guard let delegate else { return }
            let status = authorizationStatus
            delegate.locationManagerDidChangeAuthorization(self)
            (LegacyAuthorizationCallback() as any LegacyAuthorizationForwarding).forward(status, of: self, to: delegate)
        }
    }
}

/// Calls the deprecated `locationManager(_:didChangeAuthorization:)` without a deprecation
/// warning in the SDK (a deprecated witness called through its protocol).
private protocol LegacyAuthorizationForwarding {
    func forward(_ status: CLAuthorizationStatus, of manager: CLLocationManager, to delegate: any CLLocationManagerDelegate)
}

private struct LegacyAuthorizationCallback: LegacyAuthorizationForwarding {
    @available(*, deprecated)
    func forward(_ status: CLAuthorizationStatus, of manager: CLLocationManager, to delegate: any CLLocationManagerDelegate) {
        delegate.locationManager(manager, didChangeAuthorization: status)
    }
}
