// A widget that reports what it reaches of the app group "group.com.example.relay" its
// entitlements declare: the group's defaults (keys and relay data), its container, and — when
// the test names one in PROBE_TARGET — whether another path opens.
//
// In Relay.app (RelayProbe.appex) it is a second extension of the app, with a uid of its own:
// it reads what the app and the Relay widget wrote to the group. In Intruder.app it is another
// app's extension naming Relay's group: Sandglass keeps app groups per app, so it gets a
// container of its own under that name, and Relay's (PROBE_TARGET) stays closed to it.

import Foundation
import SwiftUI
import WidgetKit

struct ProbeEntry: TimelineEntry, Codable {
    let date: Date
    /// "relayData" of the group's defaults, as this extension sees them.
    let relayData: String?
    /// The keys of the group's defaults.
    let groupKeys: [String]
    let container: String?
    /// Listing PROBE_TARGET: the error, or what was listed.
    let listing: String
    /// Opening PROBE_TARGET's group defaults file.
    let defaultsFile: String
}

struct ProbeProvider: TimelineProvider {
    let group = "group.com.example.relay"

    func placeholder(in context: Context) -> ProbeEntry {
        ProbeEntry(date: Date(), relayData: nil, groupKeys: [], container: nil, listing: "", defaultsFile: "")
    }

    func getSnapshot(in context: Context, completion: @escaping (ProbeEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<ProbeEntry>) -> Void) {
        let defaults = UserDefaults(suiteName: group)
        var listing = "not asked"
        var defaultsFile = "not asked"
        if let target = ProcessInfo.processInfo.environment["PROBE_TARGET"] {
            do {
                listing = "listed: " + (try FileManager.default.contentsOfDirectory(atPath: target)).joined(separator: ",")
            } catch {
                listing = "denied: \(String(cString: strerror(errno))) (errno \(errno))"
            }
            let fd = open(target + "/Library/Preferences/\(group).plist", O_RDONLY)
            defaultsFile = fd >= 0 ? "opened" : "denied: \(String(cString: strerror(errno))) (errno \(errno))"
            if fd >= 0 { close(fd) }
        }
        let keys = defaults?.dictionaryRepresentation().keys.filter { ["relayData", "widgetReads", "teamCode"].contains($0) }.sorted() ?? []
        let entry = ProbeEntry(
            date: Date(), relayData: defaults?.string(forKey: "relayData"), groupKeys: keys,
            container: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?.path,
            listing: listing, defaultsFile: defaultsFile)
        completion(Timeline(entries: [entry], policy: .never))
    }
}

@main
struct GroupProbeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Probe", provider: ProbeProvider()) { entry in
            Text("\(entry.relayData ?? "no relay data") · \(entry.listing)")
        }
        .supportedFamilies([.systemSmall])
    }
}
