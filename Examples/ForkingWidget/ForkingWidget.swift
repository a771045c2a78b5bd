// A widget that calls fork() in getTimeline. Under the host's sandbox the call fails: the
// widget writes `fork() failed: errno <N> (<strerror>)` to stderr. Should it ever succeed,
// the child leaves at once with _exit(0) and the parent reaps it. Either way it returns a
// timeline saying what happened.

import SwiftUI
import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

struct ForkEntry: TimelineEntry, Codable {
    let date: Date
    let forkFailed: Bool
    let detail: String
}

/// Tries `fork()` and reports what happened on stderr.
func tryFork() -> ForkEntry {
    let pid = fork()
    if pid == 0 {
        _exit(0)
    }
    guard pid > 0 else {
        let code = errno
        let line = "fork() failed: errno \(code) (\(String(cString: strerror(code))))"
        FileHandle.standardError.write(Data((line + "\n").utf8))
        return ForkEntry(date: Date(), forkFailed: true, detail: line)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let line = "fork() succeeded: child \(pid)"
    FileHandle.standardError.write(Data((line + "\n").utf8))
    return ForkEntry(date: Date(), forkFailed: false, detail: line)
}

struct ForkProvider: TimelineProvider {
    func placeholder(in context: Context) -> ForkEntry {
        ForkEntry(date: Date(), forkFailed: false, detail: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (ForkEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<ForkEntry>) -> Void) {
        completion(Timeline(entries: [tryFork()], policy: .never))
    }
}

@main
struct ForkingTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Forking", provider: ForkProvider()) { entry in
            Text(entry.detail)
                .font(.caption)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Forking")
        .description("Tries to start a process.")
        .supportedFamilies([.systemSmall])
    }
}
