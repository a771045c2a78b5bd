// A widget that shows where you are — the pattern of Apple's "Accessing location information
// in widgets": NSWidgetWantsLocation in the extension's Info.plist, a purpose string in the
// app's, isAuthorizedForWidgetUpdates checked before asking, and "location not available" shown
// when authorized but no location comes (the widget is not in use). Swift 5 mode, as written
// for Apple, SwiftUI views removed.

import CoreLocation
import SwiftUI
import WidgetKit

struct NearbyEntry: TimelineEntry, Codable {
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

/// Wraps CLLocationManager for one-shot requests from the timeline provider. WidgetKit may ask
/// for timelines concurrently, so every waiting request gets the answer.
final class WidgetLocationManager: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let lock = NSLock()
    private var handlers: [(CLLocation?) -> Void] = []
    private(set) var authorizationChanges = 0

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyKilometer
    }

    var isAuthorizedForWidgetUpdates: Bool { manager.isAuthorizedForWidgetUpdates }
    var authorizationStatus: CLAuthorizationStatus { manager.authorizationStatus }

    func fetchLocation(handler: @escaping (CLLocation?) -> Void) {
        lock.lock()
        handlers.append(handler)
        lock.unlock()
        manager.requestLocation()
    }

    private func finish(_ location: CLLocation?) {
        lock.lock()
        let waiting = handlers
        handlers.removeAll()
        lock.unlock()
        for handler in waiting { handler(location) }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        finish(locations.last)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        finish(nil)
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        authorizationChanges += 1
    }
}

struct NearbyProvider: TimelineProvider {
    let locationManager = WidgetLocationManager()
    private static let applePark = CLLocation(latitude: 37.3349, longitude: -122.0090)

    func placeholder(in context: Context) -> NearbyEntry {
        entry(status: .locationUnavailable, location: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping (NearbyEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<NearbyEntry>) -> Void) {
        let nextHour = Date().addingTimeInterval(3600)
        guard locationManager.isAuthorizedForWidgetUpdates else {
            completion(Timeline(entries: [entry(status: .notAuthorized, location: nil)], policy: .after(nextHour)))
            return
        }
        locationManager.fetchLocation { location in
            let status: NearbyEntry.Status = location == nil ? .locationUnavailable : .located
            completion(Timeline(entries: [entry(status: status, location: location)], policy: .after(nextHour)))
        }
    }

    private func entry(status: NearbyEntry.Status, location: CLLocation?) -> NearbyEntry {
        NearbyEntry(
            date: Date(), status: status, latitude: location?.coordinate.latitude, longitude: location?.coordinate.longitude,
            authorizedForWidgetUpdates: locationManager.isAuthorizedForWidgetUpdates,
            appAuthorization: locationManager.authorizationStatus.rawValue,
            distanceToApplePark: location.map { $0.distance(from: Self.applePark) / 1000 })
    }
}

struct NearbyView: View {
    var entry: NearbyEntry

    var body: some View {
        switch entry.status {
        case .located:
            VStack(spacing: 2) {
                Image(systemName: "location.fill")
                    .foregroundStyle(.blue)
                Text("\(entry.distanceToApplePark ?? 0, specifier: "%.1f") km")
                    .font(.title2.bold())
                Text("from Apple Park")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        case .locationUnavailable:
            Text("Location not available right now")
                .multilineTextAlignment(.center)
        case .notAuthorized:
            Label("Allow location for widgets in Settings", systemImage: "location.slash")
                .font(.footnote)
        }
    }
}

@main
struct NearbyWidget: Widget {
    let kind = "Nearby"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: NearbyProvider()) { entry in
            NearbyView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Nearby")
        .description("How far you are from Apple Park.")
        .supportedFamilies([.systemSmall])
    }
}
