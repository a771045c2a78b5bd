import SandglassIPC
import Testing

@testable import WidgetKit

extension RuntimeTests {
    /// The SDK renders each entry's view in the extension's process, as iOS does: a widget
    /// written as Apple's documentation writes it is evaluated with its family and environment
    /// and laid out at the family's size, and the tree travels with the timeline.
    @Suite("entries' views")
    struct ViewRenderingTests {
        private func timeline(_ kind: String, family: String) async throws -> TimelinePayload {
            let harness = try await RuntimeHarness.serving(DocumentationWidgets.self)
            defer { _ = harness.finish() }
            try harness.handshake()
            let (_, reply) = try harness.timeline(RuntimeHarness.activation(kind, family: family))
            guard case .timelineReply(_, let timeline) = reply else { throw HostEndError(description: "expected a timeline, got \(reply)") }
            return timeline
        }

        private func runs(_ tree: ViewTree) -> [TextRun] {
            tree.nodes.compactMap(\.text).flatMap { $0.lines.flatMap(\.runs) }
        }

        @Test("Apple's documentation widget: each entry's view in systemSmall, its timer resolved at the entry's date, inside the margins")
        func documentationWidgetSmall() async throws {
            let timeline = try await timeline("com.mygame.game-status", family: "systemSmall")
            #expect(timeline.entries.count == 3)
            for (index, entry) in timeline.entries.enumerated() {
                let view = try #require(entry.view, "entry \(index) has its view")
                #expect(view.dark == nil, "the view does not read the colour scheme")
                let tree = view.light
                #expect(tree.family == "systemSmall" && tree.width == 170 && tree.height == 170)
                #expect(entry.text == "Waiting for Ada\nNext turn in\n\(["1:00:00", "45:00", "30:00"][index])")
                let timer = try #require(runs(tree).first { $0.dynamic != nil })
                #expect(timer.dynamic?.style == .timer)
                #expect(
                    timer.dynamic?.text(at: entry.date + 60) == ["59:00", "44:00", "29:00"][index],
                    "the host resolves it again when it draws")
                #expect(runs(tree).first { $0.text == "Waiting for Ada" }?.weight == 600, "headline is semibold")
                for node in tree.nodes where node.kind == .text {
                    #expect(
                        node.x >= 16 && node.y >= 16 && node.x + node.width <= 154 && node.y + node.height <= 154,
                        "inside the content margins: \(node)")
                }
                #expect(
                    tree.nodes.contains { $0.flags.contains(.containerBackground) }, "containerBackground(for: .widget) is drawn behind")
                #expect(tree.notes.isEmpty)
            }
        }

        @Test("@Environment(\\.widgetFamily) picks the view: medium has the last turn; inline a relative date")
        func documentationWidgetFamilies() async throws {
            let medium = try #require(try await timeline("com.mygame.game-status", family: "systemMedium").entries.first?.view?.light)
            #expect(medium.width == 364)
            #expect(runs(medium).contains { $0.text == "Last turn" })
            let symbol = try #require(medium.nodes.first { $0.image?.source == .symbol })
            #expect(symbol.image?.name == "checkmark.circle.fill")
            #expect(symbol.x + symbol.width <= 348.01 && symbol.x > 300, "the Spacer pushes it to the trailing margin: \(symbol)")

            let inline = try #require(try await timeline("com.mygame.game-status", family: "accessoryInline").entries.first?.view)
            #expect(inline.light.plainText == "Next turn 1 hr")
            #expect(
                !inline.light.nodes.contains { $0.flags.contains(.containerBackground) }, "the Lock Screen removes the container background"
            )
        }

        @Test("the placeholder is rendered redacted")
        func placeholderRedacted() async throws {
            let harness = try await RuntimeHarness.serving(DocumentationWidgets.self)
            defer { _ = harness.finish() }
            try harness.handshake()
            let (_, reply) = try harness.placeholder(RuntimeHarness.activation("com.mygame.game-status", family: "systemSmall"))
            guard case .entryReply(_, let entry) = reply, let tree = entry.view?.light else {
                Issue.record("expected an entry with a view, got \(reply)"); return
            }
            let texts = tree.nodes.filter { $0.kind == .text }
            #expect(!texts.isEmpty && texts.allSatisfy { $0.flags.contains(.redacted) })
        }

        @Test("a view that reads colorScheme is evaluated again for dark; one without containerBackground is noted")
        func colorScheme() async throws {
            let view = try #require(try await timeline("Scheme", family: "systemSmall").entries.first?.view)
            #expect(view.light.plainText == "Day")
            #expect(view.dark?.plainText == "Night")
            #expect(view.light.notes.contains { $0.contains("containerBackground") })
        }
    }
}
