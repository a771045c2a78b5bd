import CoreLocation
import Foundation
import SandglassEmbedded
import SwiftUI
import WidgetKit

/// Embedded copy of `Examples/NearbyWidget` (Nearby.app, and Commute.app's CommuteNearby):
/// `isAuthorizedForWidgetUpdates` checked before a one-shot `requestLocation`, "location not
/// available" when authorized but no fix comes.
///
/// The example keeps one `CLLocationManager` in its provider, made when its process builds the
/// widget. Embedded, the provider is built once per host and serves every instance it launches
/// (relaunches included); it is built on the main actor, outside any runtime: a manager made
/// there would belong to the test process's runtime, which has none. So each provider call makes its own manager, on the
/// request queue of the instance it serves, and keeps it until the answer. What the host sees is
/// the same: one `requestLocation` per timeline request, every waiting request answered by the
/// first fix or error.
extension BackendApp {
    /// Nearby.app: one location widget (`NSWidgetWantsLocation`).
    static let nearby = BackendApp(name: "Nearby.app") {
        ["com.example.nearby.widget": .init(widget: EmbeddedNearbyWidget.self)]
    }
}

struct EmbeddedNearbyEntry: TimelineEntry, Codable {
    enum Status: String, Codable {
        /// A fix arrived.
        case located
        /// Authorized for widget updates, but no location now (not in use).
        case locationUnavailable
        /// isAuthorizedForWidgetUpdates is false.
        case notAuthorized
    }

    let date: Date
    let status: Status
    let latitude: Double?
    let longitude: Double?
    let authorizedForWidgetUpdates: Bool
    /// `CLAuthorizationStatus` raw value of the app.
    let appAuthorization: Int32
    /// Kilometres to Apple Park, when located.
    let distanceToApplePark: Double?
}

/// One-shot requests of one provider call: the example's `WidgetLocationManager`, made on the
/// request queue of the instance it serves.
final class EmbeddedWidgetLocationManager: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    private let manager = CLLocationManager()
    private let lock = NSLock()
    private var handlers: [@Sendable (CLLocation?) -> Void] = []

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyKilometer
    }

    var isAuthorizedForWidgetUpdates: Bool { manager.isAuthorizedForWidgetUpdates }
    var authorizationStatus: CLAuthorizationStatus { manager.authorizationStatus }

    /// Asks for one location; `handler` gets it (nil: an error), and holds this manager until then.
    func fetchLocation(handler: @escaping @Sendable (CLLocation?) -> Void) {
        lock.withLock { handlers.append { [self] location in withExtendedLifetime(self) { handler(location) } } }
        manager.requestLocation()
    }

    private func finish(_ location: CLLocation?) {
        let waiting = lock.withLock {
            defer { handlers.removeAll() }
            return handlers
        }
        for handler in waiting { handler(location) }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        finish(locations.last)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        finish(nil)
    }
}

struct EmbeddedNearbyProvider: TimelineProvider {
    private static let applePark = CLLocation(latitude: 37.3349, longitude: -122.0090)

    func placeholder(in context: Context) -> EmbeddedNearbyEntry {
        Self.entry(status: .locationUnavailable, location: nil, manager: EmbeddedWidgetLocationManager(), now: EmbeddedExtension.now)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedNearbyEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedNearbyEntry>) -> Void) {
        let locationManager = EmbeddedWidgetLocationManager()
        // The answer comes on the main queue, where only a clock taken here tells the run's time.
        let clock = EmbeddedExtension.clock
        let nextHour = clock().addingTimeInterval(3600)
        guard locationManager.isAuthorizedForWidgetUpdates else {
            let entry = Self.entry(status: .notAuthorized, location: nil, manager: locationManager, now: clock())
            completion(Timeline(entries: [entry], policy: .after(nextHour)))
            return
        }
        locationManager.fetchLocation { location in
            let status: EmbeddedNearbyEntry.Status = location == nil ? .locationUnavailable : .located
            let entry = Self.entry(status: status, location: location, manager: locationManager, now: clock())
            completion(Timeline(entries: [entry], policy: .after(nextHour)))
        }
    }

    private static func entry(
        status: EmbeddedNearbyEntry.Status, location: CLLocation?, manager: EmbeddedWidgetLocationManager, now: Date
    ) -> EmbeddedNearbyEntry {
        EmbeddedNearbyEntry(
            date: now, status: status, latitude: location?.coordinate.latitude,
            longitude: location?.coordinate.longitude,
            authorizedForWidgetUpdates: manager.isAuthorizedForWidgetUpdates,
            appAuthorization: manager.authorizationStatus.rawValue,
            distanceToApplePark: location.map { $0.distance(from: applePark) / 1000 })
    }
}

struct EmbeddedNearbyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Nearby", provider: EmbeddedNearbyProvider()) { entry in
            switch entry.status {
            case .located: Text("\(entry.distanceToApplePark ?? 0, specifier: "%.1f") km")
            case .locationUnavailable: Text("Location not available right now")
            case .notAuthorized: Text("Allow location for widgets in Settings")
            }
        }
        .supportedFamilies([.systemSmall])
    }
}
