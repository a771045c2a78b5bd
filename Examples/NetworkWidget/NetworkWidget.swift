// A widget that opens an internet socket in getTimeline, as a widget fetching directly would.
// Under the host's sandbox the call fails: the widget writes
// `socket(AF_INET) failed: errno <N> (<strerror>)` to stderr and still returns a timeline
// whose entry says whether the socket failed.

import SwiftUI
import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

struct NetworkEntry: TimelineEntry, Codable {
    let date: Date
    let socketFailed: Bool
    let detail: String
}

/// Tries `socket(AF_INET, SOCK_STREAM, 0)` and reports what happened on stderr.
func tryInternetSocket() -> NetworkEntry {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else {
        let code = errno
        let line = "socket(AF_INET) failed: errno \(code) (\(String(cString: strerror(code))))"
        FileHandle.standardError.write(Data((line + "\n").utf8))
        return NetworkEntry(date: Date(), socketFailed: true, detail: line)
    }
    close(fd)
    let line = "socket(AF_INET) succeeded"
    FileHandle.standardError.write(Data((line + "\n").utf8))
    return NetworkEntry(date: Date(), socketFailed: false, detail: line)
}

struct NetworkProvider: TimelineProvider {
    func placeholder(in context: Context) -> NetworkEntry {
        NetworkEntry(date: Date(), socketFailed: false, detail: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (NetworkEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<NetworkEntry>) -> Void) {
        completion(Timeline(entries: [tryInternetSocket()], policy: .never))
    }
}

@main
struct NetworkTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Network", provider: NetworkProvider()) { entry in
            Text(entry.detail)
                .font(.caption)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Network")
        .description("Opens an internet socket itself.")
        .supportedFamilies([.systemSmall])
    }
}
