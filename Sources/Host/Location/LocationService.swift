import CSandbox
import Foundation
import SandglassIPC

/// The system's location side: holds the run's location state (the app's authorization, the
/// widgets' approval, the device's position), tells each extension its authorization, answers
/// `CLLocationManager` requests under the rules of "Accessing location information in widgets",
/// and turns significant location changes into reloads delivered when the widgets are next
/// visible. Confined to the host's loop thread.
///
/// A request gets a fix only when the extension sets `NSWidgetWantsLocation`, widget updates
/// are authorized (app `always`, or `whenInUse` extended to widgets) and the widgets are in use
/// (visible now or within the in-use window); otherwise `location.unavailable` says why and
/// the extension's manager gets `CLError.denied` (not allowed) or `.locationUnknown` (not in use).
final class LocationService {
    private let clock: RunClock
    private let log: EventLog
    private let screen: Screen
    private let supervisor: Supervisor
    private let scheduler: TimelineScheduler
    private(set) var settings: LocationSettings
    private var positionOrigin: UInt64 = 0
    private var positionTimer: RunClock.Timer?
    private var lastSignificant: GeoCoordinate?
    private var lastDelivered: GeoCoordinate?
    /// Widget instances owed a significant-location-change reload, delivered when next visible.
    private var owedReloads: [String] = []
    /// Extensions whose managers called `startUpdatingLocation()`, with the process that did.
    private var subscribers: [String: ObjectIdentifier] = [:]
    private var started = false

    init(settings: LocationSettings, clock: RunClock, log: EventLog, screen: Screen, supervisor: Supervisor, scheduler: TimelineScheduler) {
        self.settings = settings
        self.clock = clock
        self.log = log
        self.screen = screen
        self.supervisor = supervisor
        self.scheduler = scheduler
        screen.observe { [unowned self] visible in if visible { self.widgetsBecameVisible() } }
    }

    /// Starts the position's clock and records the starting state.
    func start() {
        clock.assertInLoop()
        guard !started else { return }
        started = true
        positionOrigin = clock.now
        lastSignificant = position
        log.emit(.locationAuthorization, authorizationFields(cause: "start"))
        armPositionTimer()
    }

    /// Where the device is now.
    var position: GeoCoordinate {
        settings.position.position(at: Double(clock.now - min(positionOrigin, clock.now)) / 1e9)
    }

    // MARK: authorization

    /// Whether widget updates are authorized for `bundle`: it has the key, and the app is
    /// authorized always, or when in use and extended to widgets.
    func isAuthorizedForWidgetUpdates(_ bundle: ExtensionBundle) -> Bool {
        clock.assertInLoop()
        return Self.authorizesWidgetUpdates(
            wantsLocation: bundle.wantsLocation, authorization: settings.authorization,
            approval: settings.widgetApproval)
    }

    /// The rule of `isAuthorizedForWidgetUpdates`: the key, and the app `always`, or `whenInUse`
    /// extended to widgets.
    static func authorizesWidgetUpdates(
        wantsLocation: Bool, authorization: LocationAuthorization,
        approval: WidgetLocationApproval
    ) -> Bool {
        guard wantsLocation else { return false }
        switch authorization {
        case .always: return true
        case .whenInUse: return approval == .extended
        case .notDetermined, .denied, .restricted: return false
        }
    }

    private func payload(for ext: ManagedExtension) -> LocationAuthorizationPayload {
        LocationAuthorizationPayload(status: settings.authorization.statusCode, widgetApproved: isAuthorizedForWidgetUpdates(ext.bundle))
    }

    /// Tells a process that just said hello its authorization (sent right after `welcome`).
    func extensionReady(_ ext: ManagedExtension) {
        clock.assertInLoop()
        guard let process = ext.process, process.state == .ready else { return }
        process.channel.send(.locationAuthorization(payload(for: ext)))
    }

    /// The system's question when a location widget is added: extend the app's When In Use
    /// authorization to widgets? Asked only for extensions that set `NSWidgetWantsLocation`,
    /// and only when the app is authorized when in use.
    func widgetsAdded(_ ext: ManagedExtension, kinds: [String]) {
        clock.assertInLoop()
        guard ext.bundle.wantsLocation, settings.authorization == .whenInUse, !kinds.isEmpty else { return }
        log.emit(
            .locationPrompt,
            [
                ("bundle", .string(ext.identifier)), ("kinds", .array(kinds.map { .string($0) })),
                ("answer", .string(settings.widgetApproval.rawValue))
            ])
    }

    /// Changes the state during the run (a scenario's timed change, or the library API).
    func change(
        authorization: LocationAuthorization? = nil, widgetApproval: WidgetLocationApproval? = nil,
        position: PositionSource? = nil, cause: String
    ) {
        clock.assertInLoop()
        var authorizationChanged = false
        if let authorization, authorization != settings.authorization {
            settings.authorization = authorization
            authorizationChanged = true
        }
        if let widgetApproval, widgetApproval != settings.widgetApproval {
            settings.widgetApproval = widgetApproval
            authorizationChanged = true
        }
        if authorizationChanged {
            log.emit(.locationAuthorization, authorizationFields(cause: cause))
            for ext in supervisor.extensions.values.sorted(by: { $0.identifier < $1.identifier }) {
                extensionReady(ext)
            }
        }
        if let position {
            let before = self.position
            settings.position = position
            positionOrigin = clock.now
            armPositionTimer()
            log.emit(
                .locationMoved,
                [
                    ("from", .string(before.description)), ("to", .string(self.position.description)),
                    ("position", .string(position.description)), ("cause", .string(cause))
                ])
            positionChanged()
        }
    }

    private func authorizationFields(cause: String) -> [(String, JSONValue)] {
        let widgets: [JSONValue] = supervisor.extensions.values.sorted { $0.identifier < $1.identifier }.map { ext in
            .object([
                ("bundle", .string(ext.identifier)), ("wantsLocation", .bool(ext.bundle.wantsLocation)),
                ("authorizedForWidgetUpdates", .bool(isAuthorizedForWidgetUpdates(ext.bundle)))
            ])
        }
        return [
            ("authorization", .string(settings.authorization.rawValue)), ("widgetLocation", .string(settings.widgetApproval.rawValue)),
            ("position", .string(settings.position.description)), ("cause", .string(cause)), ("extensions", .array(widgets))
        ]
    }

    // MARK: requests

    /// A `locationRequest` from `process` of `ext`.
    func handle(_ mode: LocationRequestMode, from process: ExtensionProcess, of ext: ManagedExtension) {
        clock.assertInLoop()
        switch mode {
        case .once:
            answer(ext, process, mode: "requestLocation")
        case .start:
            subscribers[ext.identifier] = ObjectIdentifier(process)
            answer(ext, process, mode: "startUpdatingLocation")
        case .stop:
            subscribers[ext.identifier] = nil
        }
    }

    /// Why `ext` cannot have a location now, or `nil` when it can.
    private func unavailability(for ext: ManagedExtension) -> (LocationUnavailability, String)? {
        if !ext.bundle.wantsLocation {
            return (
                .keyMissing,
                "\(URL(fileURLWithPath: ext.bundle.path).lastPathComponent)/Info.plist does not set NSWidgetWantsLocation, so the widget never receives location, whatever the app's authorization (\(settings.authorization))"
            )
        }
        if !isAuthorizedForWidgetUpdates(ext.bundle) {
            let why =
                switch settings.authorization {
                case .whenInUse: "the app is authorized when in use, but the user did not extend that to widgets"
                case .notDetermined: "the app has not asked for location yet (notDetermined)"
                default: "the app's location authorization is \(settings.authorization)"
                }
            return (.notAuthorizedForWidgets, "\(why): isAuthorizedForWidgetUpdates is false")
        }
        let now = clock.now
        guard let since = screen.sinceVisible(at: now) else {
            return (.notInUse, "the widgets have not been visible yet, so their location is not in use")
        }
        if since > settings.inUseWindow.nanoseconds {
            return (
                .notInUse,
                "the widgets were last visible \(format(.nanoseconds(Int64(since)))) ago, longer than the \(format(settings.inUseWindow)) in-use window"
            )
        }
        return nil
    }

    /// Answers a request of `process`. Its event is charged to the process's log budget (a
    /// request may come 200 times a second): past it the answer still goes, and the event is
    /// left out, counted in `messages.throttled`.
    private func answer(_ ext: ManagedExtension, _ process: ExtensionProcess, mode: String) {
        if let (why, detail) = unavailability(for: ext) {
            process.channel.send(.locationFailure(why.errorCode))
            let fields: [(String, JSONValue)] = [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("mode", .string(mode)), ("why", .string(why.rawValue)),
                ("error", .string(why.errorCode == .denied ? "denied" : "locationUnknown")),
                ("detail", .string(detail))
            ]
            supervisor.emitCharged(.locationUnavailable, fields, for: process, of: ext)
            return
        }
        deliver(to: ext, process, mode: mode, charged: true)
    }

    /// Sends the position to `process`; its event, when `charged` (a request of the process's
    /// caused it), is charged to the process's log budget as ``answer(_:_:mode:)`` says.
    private func deliver(to ext: ManagedExtension, _ process: ExtensionProcess, mode: String, charged: Bool = false) {
        let here = position
        let fix = LocationPayload(
            latitude: here.latitude, longitude: here.longitude, altitude: here.altitude,
            horizontalAccuracy: settings.horizontalAccuracy, verticalAccuracy: -1,
            timestamp: clock.currentDate)
        process.channel.send(.locationUpdate([fix]))
        lastDelivered = here
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("mode", .string(mode)), ("latitude", .double(here.latitude)),
            ("longitude", .double(here.longitude)), ("accuracy", .double(settings.horizontalAccuracy))
        ]
        if let since = screen.sinceVisible(at: clock.now), since > 0 {
            fields.append(("sinceVisibleMs", .double(Double(since / 1_000_000))))
        }
        if charged, !supervisor.admitsEvent(.locationDelivered, fields, for: process, of: ext) { return }
        log.emit(.locationDelivered, fields)
    }

    // MARK: movement

    private func armPositionTimer() {
        if let positionTimer { clock.cancel(positionTimer) }
        positionTimer = nil
        guard case .route(let route) = settings.position else { return }
        let elapsed = Double(clock.now - min(positionOrigin, clock.now)) / 1e9
        // A route from the API may hold any numbers (files are checked): one the clock cannot
        // reach stops the device there, and it moves at most once a millisecond.
        guard let next = route.nextPointTime(after: elapsed), next.isFinite, next >= 0, next <= RouteFile.maximumSpan else { return }
        let (at, overflow) = positionOrigin.addingReportingOverflow(UInt64(next * 1e9))
        guard !overflow else { return }
        positionTimer = clock.schedule(at: max(at, clock.now &+ 1_000_000)) { [unowned self] in
            self.positionTimer = nil
            self.positionChanged()
            self.armPositionTimer()
        }
    }

    /// The device moved: updates for subscribed managers, and a significant change owes the
    /// location widgets a reload when they are next visible (free of their reload budget).
    private func positionChanged() {
        let here = position
        for (identifier, processID) in subscribers.sorted(by: { $0.key < $1.key }) {
            guard let ext = supervisor.extensions[identifier], let process = ext.process, ObjectIdentifier(process) == processID,
                process.state == .ready
            else {
                subscribers[identifier] = nil
                continue
            }
            if unavailability(for: ext) == nil, lastDelivered.map({ $0 != here }) ?? true {
                deliver(to: ext, process, mode: "update")
            }
        }
        guard let last = lastSignificant else {
            lastSignificant = here
            return
        }
        let moved = last.distance(to: here)
        guard moved >= settings.significantChangeMeters else { return }
        lastSignificant = here
        let owed = scheduler.instances.filter { isAuthorizedForWidgetUpdates($0.ext.bundle) }
        log.emit(
            .locationSignificantChange,
            [
                ("from", .string(last.description)), ("to", .string(here.description)),
                ("meters", .double(moved.rounded())),
                ("widgets", .array(owed.map { .string($0.id) })),
                ("deliveredWhen", .string(screen.isVisible ? "now" : "nextVisible"))
            ])
        for instance in owed where !owedReloads.contains(instance.id) { owedReloads.append(instance.id) }
        if screen.isVisible { widgetsBecameVisible() }
    }

    /// The widgets appeared: the reloads owed for significant location changes happen now.
    private func widgetsBecameVisible() {
        let owed = owedReloads
        owedReloads.removeAll()
        for id in owed {
            guard let instance = scheduler.instances.first(where: { $0.id == id }) else { continue }
            scheduler.systemReload(instance, reason: .significantLocationChange)
        }
    }

    func stop() {
        clock.assertInLoop()
        if let positionTimer { clock.cancel(positionTimer) }
        positionTimer = nil
        subscribers.removeAll()
    }
}
