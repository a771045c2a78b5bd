//
//  InlineFetchWidget.swift
//  InlineFetchWidget
//
//  A widget that fetches its data inline, in getTimeline, with URLSession.shared — the way many
//  widgets do, and the way Apple warns about: "a request may not have enough time to complete
//  before the system halts the widget extension". Under a short budget a slow URL loses its
//  data at the kill, and the previous timeline stays. With SANDGLASS_FIXTURE_DOWNLOAD=1 it uses
//  download(from:) instead.
//

import SwiftUI
import WidgetKit

struct FetchEntry: TimelineEntry, Codable {
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

struct FetchProvider: TimelineProvider {
    func placeholder(in context: Context) -> FetchEntry {
        FetchEntry(date: Date(), bytes: nil, statusCode: nil, failure: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping (FetchEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<FetchEntry>) -> Void) {
        Task {
            let entry = await fetch()
            completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(15 * 60))))
        }
    }

    private func fetch() async -> FetchEntry {
        guard let url = ProcessInfo.processInfo.environment["SANDGLASS_FIXTURE_URL"].flatMap(URL.init(string:)) else {
            return FetchEntry(date: Date(), bytes: nil, statusCode: nil, failure: "SANDGLASS_FIXTURE_URL is not set")
        }
        do {
            if ProcessInfo.processInfo.environment["SANDGLASS_FIXTURE_DOWNLOAD"] == "1" {
                // download(from:): the body arrives as a file in the container's tmp.
                let (location, response) = try await URLSession.shared.download(from: url)
                let data = try Data(contentsOf: location)
                try? FileManager.default.removeItem(at: location)
                let statusCode = (response as? HTTPURLResponse)?.statusCode
                return FetchEntry(date: Date(), bytes: data.count, statusCode: statusCode, failure: nil)
            }
            let (data, response) = try await URLSession.shared.data(from: url)
            let statusCode = (response as? HTTPURLResponse)?.statusCode
            return FetchEntry(date: Date(), bytes: data.count, statusCode: statusCode, failure: nil)
        } catch {
            return FetchEntry(date: Date(), bytes: nil, statusCode: nil, failure: error.localizedDescription)
        }
    }
}

@main
struct InlineFetchWidget: Widget {
    let kind: String = "InlineFetch"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: FetchProvider()) { entry in
            Text(entry.summary)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Inline fetch")
        .description("Fetches its data inside getTimeline.")
        .supportedFamilies([.systemSmall])
    }
}
