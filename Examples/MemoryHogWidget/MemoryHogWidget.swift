// A widget that allocates 64 MiB in getTimeline and touches every page, 1 MiB at a time,
// before returning a timeline. The host must kill it when it crosses its memory budget
// (MemoryHog.app sets SandglassLimits.MemoryMiB to 24), so the timeline never arrives.
//
// The memory comes from mmap, which the optimizer cannot see through, so no touch is elided.
//
// The same executable serves HeavyView.app, whose widgets misbehave in their views rather than
// in their providers (chosen by bundle identifier): `.photo` draws a 4000 × 3000 photo, which
// iOS decodes when it renders the view — 46 MiB, over the 30 MiB limit — and `.trap` indexes
// past the end of an array in its body.

import SwiftUI
import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

struct MemoryEntry: TimelineEntry, Codable {
    let date: Date
    let touchedMiB: Int
}

/// Maps and touches `mebibytes` MiB in 1 MiB steps; returns how many were touched.
func touchMemory(mebibytes: Int) -> Int {
    let step = 1 << 20
    var touched = 0
    var regions: [UnsafeMutableRawPointer] = []
    for _ in 0..<mebibytes {
        let region = mmap(nil, step, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else {
            let code = errno
            FileHandle.standardError.write(
                Data("mmap failed after \(touched) MiB: errno \(code) (\(String(cString: strerror(code))))\n".utf8))
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

/// Answers at once with one entry: the views do the damage.
struct QuickProvider: TimelineProvider {
    func placeholder(in context: Context) -> MemoryEntry {
        MemoryEntry(date: Date(), touchedMiB: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (MemoryEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<MemoryEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

/// A photo as a widget might read it from its App Group container: a PNG of 4000 × 3000 pixels
/// (its header is all the decoder reads before drawing).
enum Photo {
    static let png: Data = {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [UInt32(4000), UInt32(3000)] {
            bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        return Data(bytes + [8, 6, 0, 0, 0])
    }()
}

struct PhotoView: View {
    var body: some View {
        Image(uiImage: UIImage(data: Photo.png)!)
            .resizable()
            .scaledToFill()
    }
}

struct TrappingView: View {
    let scores: [Int] = []

    var body: some View {
        Text("Top score: \(scores[0])")
    }
}

@main
struct MemoryHogTimelineWidget: Widget {
    let bundle = ProcessInfo.processInfo.environment["SANDGLASS_BUNDLE_IDENTIFIER"] ?? ""

    var body: some WidgetConfiguration {
        if bundle.hasSuffix(".photo") {
            StaticConfiguration(kind: "Photo", provider: QuickProvider()) { _ in
                PhotoView()
                    .containerBackground(.black, for: .widget)
            }
            .supportedFamilies([.systemSmall])
        } else if bundle.hasSuffix(".trap") {
            StaticConfiguration(kind: "Trap", provider: QuickProvider()) { _ in
                TrappingView()
                    .containerBackground(.fill.tertiary, for: .widget)
            }
            .supportedFamilies([.systemSmall])
        } else {
            StaticConfiguration(kind: "MemoryHog", provider: MemoryHogProvider()) { entry in
                Text("touched \(entry.touchedMiB) MiB")
                    .containerBackground(.fill.tertiary, for: .widget)
            }
            .configurationDisplayName("Memory Hog")
            .description("Touches 64 MiB while building its timeline.")
            .supportedFamilies([.systemSmall])
        }
    }
}
