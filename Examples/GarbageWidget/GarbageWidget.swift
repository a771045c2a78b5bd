// A widget that writes garbage straight to its IPC descriptor (fd 3) in getTimeline: a length
// prefix of 0x7FFFFFFF, far over the frame limit, then text. The host must treat it as a
// protocol violation and kill the extension. The widget then waits, never completing.

import Dispatch
import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

struct GarbageEntry: TimelineEntry, Codable {
    let date: Date
}

/// Writes bytes that are no Sandglass frame to the host's socket.
func writeGarbage() {
    let ipcDescriptor: Int32 = 3
    let garbage: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF] + Array("this is not a Sandglass frame".utf8)
    let written = garbage.withUnsafeBytes { write(ipcDescriptor, $0.baseAddress, $0.count) }
    if written < 0 {
        let code = errno
        FileHandle.standardError.write(Data("writing garbage to fd 3 failed: errno \(code) (\(String(cString: strerror(code))))\n".utf8))
    }
}

struct GarbageProvider: TimelineProvider {
    func placeholder(in context: Context) -> GarbageEntry {
        GarbageEntry(date: Date())
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (GarbageEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<GarbageEntry>) -> Void) {
        writeGarbage()
        let neverSignalled = DispatchSemaphore(value: 0)
        neverSignalled.wait()
        completion(Timeline(entries: [GarbageEntry(date: Date())], policy: .never))
    }
}

@main
struct GarbageTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Garbage", provider: GarbageProvider())
            .configurationDisplayName("Garbage")
            .description("Writes bytes that are not the protocol.")
            .supportedFamilies([.systemSmall])
    }
}
