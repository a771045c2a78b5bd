import CoreLocation
import Foundation
import SandglassEmbedded
import SwiftUI
import WidgetKit

/// Embedded copy of `Examples/TimetableWidget` (Commute.app's CommuteTimetable, without
/// `NSWidgetWantsLocation`): it asks Core Location anyway and says in its entries what it got.
/// As in ``EmbeddedNearbyProvider``, each provider call makes its own manager, on the request
/// queue of the instance it serves.
extension BackendApp {
    /// Commute.app: CommuteNearby (the Nearby widget, with `NSWidgetWantsLocation`) and
    /// CommuteTimetable (without), one app authorization.
    static let commute = BackendApp(name: "Commute.app") {
        [
            "com.example.commute.nearby": .init(widget: EmbeddedNearbyWidget.self),
            "com.example.commute.timetable": .init(widget: EmbeddedTimetableWidget.self)
        ]
    }
}

struct EmbeddedTimetableEntry: TimelineEntry, Codable {
    let date: Date
    let nextDeparture: Date
    /// Whether a location arrived (never, for this extension).
    let located: Bool
    let authorizedForWidgetUpdates: Bool
    /// The CLError code the manager reported, if any.
    let locationError: Int?
}

/// One-shot requests of one provider call: the example's `OneShotLocation`.
final class EmbeddedOneShotLocation: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    private let manager = CLLocationManager()
    private let lock = NSLock()
    private var handlers: [@Sendable (CLLocation?, (any Error)?) -> Void] = []

    override init() {
        super.init()
        manager.delegate = self
    }

    var isAuthorizedForWidgetUpdates: Bool { manager.isAuthorizedForWidgetUpdates }

    /// Asks for one location; `handler` gets it or the error, and holds this manager until then.
    func request(_ handler: @escaping @Sendable (CLLocation?, (any Error)?) -> Void) {
        lock.withLock { handlers.append { [self] location, error in withExtendedLifetime(self) { handler(location, error) } } }
        manager.requestLocation()
    }

    private func finish(_ location: CLLocation?, _ error: (any Error)?) {
        let waiting = lock.withLock {
            defer { handlers.removeAll() }
            return handlers
        }
        for handler in waiting { handler(location, error) }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        finish(locations.last, nil)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        finish(nil, error)
    }
}

struct EmbeddedTimetableProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedTimetableEntry {
        let now = EmbeddedExtension.now
        return EmbeddedTimetableEntry(
            date: now, nextDeparture: now.addingTimeInterval(600), located: false, authorizedForWidgetUpdates: false, locationError: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedTimetableEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedTimetableEntry>) -> Void) {
        let location = EmbeddedOneShotLocation()
        // The answer comes on the main queue, where only a clock taken here tells the run's time.
        let clock = EmbeddedExtension.clock
        location.request { found, error in
            let now = clock()
            let entry = EmbeddedTimetableEntry(
                date: now, nextDeparture: now.addingTimeInterval(600), located: found != nil,
                authorizedForWidgetUpdates: location.isAuthorizedForWidgetUpdates,
                locationError: (error as? CLError)?.code.rawValue)
            completion(Timeline(entries: [entry], policy: .after(now.addingTimeInterval(3600))))
        }
    }
}

struct EmbeddedTimetableWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Timetable", provider: EmbeddedTimetableProvider()) { entry in
            VStack(alignment: .leading, spacing: 4) {
                Text("Next train")
                Text(entry.nextDeparture, style: .time)
            }
        }
        .supportedFamilies([.systemSmall])
    }
}
