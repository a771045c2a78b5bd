/// A timeline entry on its way from a provider's completion to the encoder and the renderer.
///
/// Apple's API does not require entries to be `Sendable`; like WidgetKit itself, the SDK hands
/// each entry on once and never mutates it, so the box is unchecked.
struct AnyEntry: @unchecked Sendable {
    let entry: any TimelineEntry

    init(_ entry: any TimelineEntry) {
        self.entry = entry
    }
}

/// A `Timeline` with its entry type erased.
struct AnyTimeline: @unchecked Sendable {
    let entries: [AnyEntry]
    let policy: TimelineReloadPolicy

    init<Entry: TimelineEntry>(_ timeline: Timeline<Entry>) {
        entries = timeline.entries.map(AnyEntry.init)
        policy = timeline.policy
    }
}

/// Holds a provider that is not `Sendable`.
///
/// Apple calls providers from background threads, concurrently, without asking them to be
/// `Sendable`; the SDK does the same.
private final class ProviderBox<Provider>: @unchecked Sendable {
    let provider: Provider

    init(_ provider: Provider) {
        self.provider = provider
    }
}

/// A `TimelineProvider`, `IntentTimelineProvider` or `AppIntentTimelineProvider` with its
/// types erased.
struct ErasedProvider: Sendable {
    /// How the provider's snapshot call is spelled, for log messages.
    let snapshotCallName: String
    /// How the provider's timeline call is spelled, for log messages.
    let timelineCallName: String

    let placeholder: @Sendable (TimelineProviderContext) -> AnyEntry
    let snapshot: @Sendable (TimelineProviderContext, @escaping @Sendable (AnyEntry) -> Void) -> Void
    let timeline: @Sendable (TimelineProviderContext, @escaping @Sendable (AnyTimeline) -> Void) -> Void
    /// The configuration intent made from a widget's configuration (JSON); nil for a provider
    /// without one.
    let makeIntent: (@Sendable ([UInt8], String) -> Any)?

    init<Provider: TimelineProvider>(timelineProvider: Provider) {
        let box = ProviderBox(timelineProvider)
        snapshotCallName = "getSnapshot(in:completion:)"
        timelineCallName = "getTimeline(in:completion:)"
        placeholder = { context in
            AnyEntry(box.provider.placeholder(in: context))
        }
        snapshot = { context, done in
            box.provider.getSnapshot(in: context) { entry in done(AnyEntry(entry)) }
        }
        timeline = { context, done in
            box.provider.getTimeline(in: context) { timeline in done(AnyTimeline(timeline)) }
        }
        makeIntent = nil
    }

    init<Provider: IntentTimelineProvider>(intentProvider: Provider) {
        let box = ProviderBox(intentProvider)
        let make: @Sendable ([UInt8], String) -> Provider.Intent = { json, kind in
            ConfiguredIntent.make({ Provider.Intent() }, configuration: json, kind: kind)
        }
        snapshotCallName = "getSnapshot(for:in:completion:)"
        timelineCallName = "getTimeline(for:in:completion:)"
        placeholder = { context in
            AnyEntry(box.provider.placeholder(in: context))
        }
        snapshot = { context, done in
            box.provider.getSnapshot(for: make(context.intentConfiguration, context.kind), in: context) { entry in done(AnyEntry(entry)) }
        }
        timeline = { context, done in
            box.provider.getTimeline(for: make(context.intentConfiguration, context.kind), in: context) { timeline in
                done(AnyTimeline(timeline))
            }
        }
        makeIntent = make
    }

    init<Provider: AppIntentTimelineProvider>(appIntentProvider: Provider) {
        let box = ProviderBox(appIntentProvider)
        let make: @Sendable ([UInt8], String) -> Provider.Intent = { json, kind in
            ConfiguredIntent.makeAppIntent(Provider.Intent.self, configuration: json, kind: kind)
        }
        makeIntent = make
        snapshotCallName = "snapshot(for:in:)"
        timelineCallName = "timeline(for:in:)"
        placeholder = { context in
            AnyEntry(box.provider.placeholder(in: context))
        }
        snapshot = { context, done in
            Task {
                let entry = await box.provider.snapshot(for: make(context.intentConfiguration, context.kind), in: context)
                done(AnyEntry(entry))
            }
        }
        timeline = { context, done in
            Task {
                let timeline = await box.provider.timeline(for: make(context.intentConfiguration, context.kind), in: context)
                done(AnyTimeline(timeline))
            }
        }
    }
}
