// Intruder.app: another app whose widget declares Relay's app group identifier
// (group.com.example.relay) in its own entitlements, and tries to read Relay's group container
// by path (INTRUDER_TARGET, given by the test). Sandglass keeps app groups per app: the
// intruder gets a container of its own under that name, and Relay's stays closed to it.

import Foundation
import WidgetKit

struct IntruderEntry: TimelineEntry, Codable {
    let date: Date
    /// What "group.com.example.relay" holds for this app: nothing the Relay app wrote.
    let ownRelayData: String?
    let ownContainer: String?
    /// Reading Relay's container by path: the error, or what was read.
    let listing: String
    let defaultsFile: String
}

struct IntruderProvider: TimelineProvider {
    func placeholder(in context: Context) -> IntruderEntry {
        IntruderEntry(date: Date(), ownRelayData: nil, ownContainer: nil, listing: "", defaultsFile: "")
    }

    func getSnapshot(in context: Context, completion: @escaping (IntruderEntry) -> ()) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<IntruderEntry>) -> ()) {
        let group = "group.com.example.relay"
        let target = ProcessInfo.processInfo.environment["INTRUDER_TARGET"] ?? "/nonexistent"
        let listing: String
        do {
            listing = "listed: " + (try FileManager.default.contentsOfDirectory(atPath: target)).joined(separator: ",")
        } catch {
            listing = "denied: \(String(cString: strerror(errno))) (errno \(errno))"
        }
        let file = target + "/Library/Preferences/\(group).plist"
        let fd = open(file, O_RDONLY)
        let defaultsFile = fd >= 0 ? "opened" : "denied: \(String(cString: strerror(errno))) (errno \(errno))"
        if fd >= 0 { close(fd) }
        let entry = IntruderEntry(
            date: Date(),
            ownRelayData: UserDefaults(suiteName: group)?.string(forKey: "relayData"),
            ownContainer: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?.path,
            listing: listing, defaultsFile: defaultsFile)
        completion(Timeline(entries: [entry], policy: .never))
    }
}

@main
struct IntruderWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Intruder", provider: IntruderProvider()) { entry in
            "\(entry.listing) · \(entry.defaultsFile)"
        }
        .supportedFamilies([.systemSmall])
    }
}
