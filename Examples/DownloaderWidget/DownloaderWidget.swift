//
//  DownloaderWidget.swift
//  DownloaderWidget
//
//  A widget that refreshes its data with a background download, the way Apple's "Making
//  network requests in a widget extension" describes it: getTimeline starts the download and
//  answers from the cache; the system finishes the download even after the extension was
//  terminated, relaunches it by session identifier, and the extension moves the file into its
//  cache, reloads its timeline and calls the stored completion.
//

import SwiftUI
import WidgetKit

@main
struct DownloaderWidget: Widget {
    let kind: String = "Downloader"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: FeedProvider()) { entry in
            Text(entry.summary)
                .font(.headline)
                .multilineTextAlignment(.center)
                .containerBackground(for: .widget) {
                    LinearGradient(colors: [.teal, .blue], startPoint: .top, endPoint: .bottom)
                }
                .foregroundStyle(.white)
        }
        .configurationDisplayName("Feed")
        .description("The size of the last feed download.")
        .supportedFamilies([.systemSmall, .systemMedium])
        .onBackgroundURLSessionEvents(matching: FeedDownloader.sessionIdentifier) { identifier, completion in
            // Relaunched (or woken) for the session's events: store the completion and make sure
            // the session exists again, so its delegate receives them.
            FeedDownloader.shared.handleEvents(for: identifier, completion: completion)
        }
    }
}
