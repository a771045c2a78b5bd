import Foundation
import SandglassEmbedded
import SwiftUI
import WidgetKit

/// Embedded copy of `Examples/InlineFetchWidget` (InlineFetch.app): `getTimeline` fetches
/// `SANDGLASS_FIXTURE_URL` inline with `URLSession.shared`, in a `Task`, and answers with what
/// came back; with `SANDGLASS_FIXTURE_DOWNLOAD=1` it uses `download(from:)`.
///
/// As in the example, the request is made in the task the provider starts: the task keeps the
/// instance's runtime, so the request is the instance's (and dies with it). The copy reads the
/// host's variables and the run clock through ``EmbeddedExtension`` — in `getTimeline`, where the
/// instance is known, and hands them to the task.
extension BackendApp {
    /// InlineFetch.app: one widget fetching inline in `getTimeline`.
    static let inlineFetch = BackendApp(name: "InlineFetch.app") {
        ["com.example.inlinefetch.widget": .init(widget: EmbeddedInlineFetchWidget.self)]
    }
}

struct EmbeddedFetchEntry: TimelineEntry, Codable {
    let date: Date
    let bytes: Int?
    let statusCode: Int?
    let failure: String?

    var summary: String {
        if let failure = failure { return "Fetch failed: \(failure)" }
        guard let bytes = bytes, let statusCode = statusCode else { return "Fetching…" }
        return "\(bytes) bytes, HTTP \(statusCode)"
    }
}

struct EmbeddedFetchProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedFetchEntry {
        EmbeddedFetchEntry(date: EmbeddedExtension.now, bytes: nil, statusCode: nil, failure: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedFetchEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedFetchEntry>) -> Void) {
        let clock = EmbeddedExtension.clock
        let url = EmbeddedExtension.environment("SANDGLASS_FIXTURE_URL").flatMap(URL.init(string:))
        let downloads = EmbeddedExtension.environment("SANDGLASS_FIXTURE_DOWNLOAD") == "1"
        Task {
            let entry = await Self.fetch(url, downloads: downloads, clock: clock)
            completion(Timeline(entries: [entry], policy: .after(clock().addingTimeInterval(15 * 60))))
        }
    }

    private static func fetch(_ url: URL?, downloads: Bool, clock: @Sendable () -> Date) async -> EmbeddedFetchEntry {
        guard let url else {
            return EmbeddedFetchEntry(date: clock(), bytes: nil, statusCode: nil, failure: "SANDGLASS_FIXTURE_URL is not set")
        }
        do {
            if downloads {
                // download(from:): the body arrives as a file in the container's tmp.
                let (location, response) = try await URLSession.shared.download(from: url)
                let data = try Data(contentsOf: location)
                try? FileManager.default.removeItem(at: location)
                let statusCode = (response as? HTTPURLResponse)?.statusCode
                return EmbeddedFetchEntry(date: clock(), bytes: data.count, statusCode: statusCode, failure: nil)
            }
            let (data, response) = try await URLSession.shared.data(from: url)
            let statusCode = (response as? HTTPURLResponse)?.statusCode
            return EmbeddedFetchEntry(date: clock(), bytes: data.count, statusCode: statusCode, failure: nil)
        } catch {
            return EmbeddedFetchEntry(date: clock(), bytes: nil, statusCode: nil, failure: error.localizedDescription)
        }
    }
}

struct EmbeddedInlineFetchWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "InlineFetch", provider: EmbeddedFetchProvider()) { entry in
            Text(entry.summary)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Inline fetch")
        .description("Fetches its data inside getTimeline.")
        .supportedFamilies([.systemSmall])
    }
}
