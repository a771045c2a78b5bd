// A widget that allocates 64 MiB in getTimeline and touches every page, 1 MiB at a time,
// before returning a timeline. The host must kill it when it crosses its memory budget
// (MemoryHog.app sets SandglassLimits.MemoryMiB to 24), so the timeline never arrives.
//
// The memory comes from mmap, which the optimizer cannot see through, so no touch is elided.

#if canImport(Glibc)
import Glibc
#endif
import WidgetKit

struct MemoryEntry: TimelineEntry, Codable {
    let date: Date
    let touchedMiB: Int
}

/// Maps and touches `mebibytes` MiB in 1 MiB steps; returns how many were touched.
func touchMemory(mebibytes: Int) -> Int {
    let step = 1 << 20
    var touched = 0
    var regions: [UnsafeMutableRawPointer] = []
    for _ in 0 ..< mebibytes {
        let region = mmap(nil, step, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else {
            let code = errno
            FileHandle.standardError.write(Data("mmap failed after \(touched) MiB: errno \(code) (\(String(cString: strerror(code))))\n".utf8))
            break
        }
        memset(region, 0xA5, step)
        regions.append(region)
        touched += 1
    }
    for region in regions {
        munmap(region, step)
    }
    return touched
}

struct MemoryHogProvider: TimelineProvider {
    func placeholder(in context: Context) -> MemoryEntry {
        MemoryEntry(date: Date(), touchedMiB: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (MemoryEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<MemoryEntry>) -> Void) {
        let touched = touchMemory(mebibytes: 64)
        completion(Timeline(entries: [MemoryEntry(date: Date(), touchedMiB: touched)], policy: .never))
    }
}

@main
struct MemoryHogTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "MemoryHog", provider: MemoryHogProvider()) { entry in
            "touched \(entry.touchedMiB) MiB"
        }
        .configurationDisplayName("Memory Hog")
        .description("Touches 64 MiB while building its timeline.")
        .supportedFamilies([.systemSmall])
    }
}
