// The misbehaviour corpus: ten extensions of Misbehaving.app share this executable; each does
// one thing wrong in getTimeline (Misbehaviour.swift). The host must contain every one with a
// typed verdict — a kill with its reason, a protocol violation, a sandbox denial or an errno —
// and stay unharmed, as must every other extension of the host.

import Dispatch
import SwiftUI
import WidgetKit

struct MisbehaviourEntry: TimelineEntry, Codable {
    let date: Date
    let behaviour: String
    let detail: String
}

struct MisbehavingProvider: TimelineProvider {
    let behaviour = Misbehaviour.current

    func placeholder(in context: Context) -> MisbehaviourEntry {
        MisbehaviourEntry(date: Date(), behaviour: behaviour?.rawValue ?? "none", detail: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (MisbehaviourEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<MisbehaviourEntry>) -> Void) {
        guard let behaviour else {
            report("unknown misbehaviour for \(ProcessInfo.processInfo.environment["SANDGLASS_BUNDLE_IDENTIFIER"] ?? "?")")
            return completion(Timeline(entries: [placeholder(in: context)], policy: .never))
        }
        let detail = misbehave(behaviour)
        let timeline = Timeline(entries: [MisbehaviourEntry(date: Date(), behaviour: behaviour.rawValue, detail: detail)], policy: .never)
        switch behaviour {
        case .nevercompletes, .oversized, .outoforder:
            return // the completion is never called
        case .doublecompletion:
            completion(timeline)
            completion(timeline)
        default:
            completion(timeline)
        }
    }
}

@main
struct MisbehavingTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Misbehaving", provider: MisbehavingProvider()) { entry in
            Text("\(entry.behaviour): \(entry.detail)")
                .containerBackground(.red.gradient, for: .widget)
        }
        .configurationDisplayName("Misbehaving")
        .description("Does one thing wrong.")
        .supportedFamilies([.systemSmall])
    }
}
