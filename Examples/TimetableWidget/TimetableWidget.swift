// A timetable widget shipped in the same app as a location widget (Commute.app), in its own
// extension without NSWidgetWantsLocation — as Apple advises, so that the user is only asked
// about the widget that uses location. It still asks Core Location, to show that an extension
// without the key never receives a location, whatever the app's authorization: its entries say
// what it got.

import CoreLocation
import SwiftUI
import WidgetKit

struct TimetableEntry: TimelineEntry, Codable {
    let date: Date
    let nextDeparture: Date
    /// Whether a location arrived (never, for this extension).
    let located: Bool
    let authorizedForWidgetUpdates: Bool
    /// The CLError code the manager reported, if any.
    let locationError: Int?
}

/// One-shot location requests; concurrent timeline requests all get the answer.
final class OneShotLocation: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let lock = NSLock()
    private var handlers: [(CLLocation?, Error?) -> Void] = []

    override init() {
        super.init()
        manager.delegate = self
    }

    var isAuthorizedForWidgetUpdates: Bool { manager.isAuthorizedForWidgetUpdates }

    func request(_ handler: @escaping (CLLocation?, Error?) -> Void) {
        lock.lock()
        handlers.append(handler)
        lock.unlock()
        manager.requestLocation()
    }

    private func finish(_ location: CLLocation?, _ error: Error?) {
        lock.lock()
        let waiting = handlers
        handlers.removeAll()
        lock.unlock()
        for handler in waiting { handler(location, error) }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        finish(locations.last, nil)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        finish(nil, error)
    }
}

struct TimetableProvider: TimelineProvider {
    let location = OneShotLocation()

    func placeholder(in context: Context) -> TimetableEntry {
        TimetableEntry(
            date: Date(), nextDeparture: Date().addingTimeInterval(600), located: false,
            authorizedForWidgetUpdates: false, locationError: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping (TimetableEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<TimetableEntry>) -> Void) {
        location.request { found, error in
            let now = Date()
            let entry = TimetableEntry(
                date: now, nextDeparture: now.addingTimeInterval(600), located: found != nil,
                authorizedForWidgetUpdates: location.isAuthorizedForWidgetUpdates,
                locationError: (error as? CLError)?.code.rawValue)
            completion(Timeline(entries: [entry], policy: .after(now.addingTimeInterval(3600))))
        }
    }
}

@main
struct TimetableWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Timetable", provider: TimetableProvider()) { entry in
            VStack(alignment: .leading, spacing: 4) {
                Label("Next train", systemImage: "tram.fill")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text(entry.nextDeparture, style: .time)
                    .font(.title.bold())
                Text(entry.nextDeparture, style: .relative)
                    .font(.footnote)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Timetable")
        .description("The next departure.")
        .supportedFamilies([.systemSmall])
    }
}
