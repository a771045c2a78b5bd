import Testing

@testable import WidgetKit

// Compile-time proof, in Swift 6 language mode: providers spelled with `@escaping @Sendable`
// completions (ScoreProvider) and with plain `@escaping` completions (PolicyProvider,
// TwiceProvider's snapshot) both conform to TimelineProvider without a diagnostic.

/// Both spellings in one provider.
struct MixedSpellingProvider: TimelineProvider {
    func placeholder(in context: Context) -> PolicyEntry {
        PolicyEntry(date: referenceDate)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (PolicyEntry) -> Void) {
        completion(PolicyEntry(date: referenceDate))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
        completion(Timeline(entries: [], policy: .never))
    }
}

@Suite("provider conformance")
struct ProviderConformanceTests {
    @Test("both completion spellings conform", arguments: [true, false])
    func bothSpellings(sendable: Bool) async throws {
        func assertProvider<P: TimelineProvider>(_: P.Type) -> Bool { true }
        #expect(assertProvider(ScoreProvider.self))
        #expect(assertProvider(PolicyProvider.self))
        #expect(assertProvider(MixedSpellingProvider.self))
        let kinds = await MainActor.run {
            descriptors(of: StaticConfiguration(kind: "Mixed", provider: MixedSpellingProvider())).map(\.kind)
        }
        #expect(kinds == ["Mixed"])
    }

    @Test("the reload policies and families keep Apple's shapes")
    func apiShapes() {
        #expect(TimelineReloadPolicy.after(referenceDate) == .after(referenceDate))
        #expect(TimelineReloadPolicy.atEnd != .never)
        #expect(TimelineEntryRelevance(score: 1).duration == 0)
        #expect(WidgetFamily.systemMedium.displaySize == CGSize(width: 364, height: 170))
        #expect(WidgetFamily.accessoryInline.description == "accessoryInline")
        #expect(WidgetFamily(rawValue: "systemExtraLarge")?.displaySize == CGSize(width: 715, height: 338))
    }
}
