import SandglassIPC
import Testing

@testable import WidgetKit

extension RuntimeTests {
    @Suite("hello and welcome")
    struct HandshakeTests {
        @Test("hello is the first frame and declares every widget of the bundle")
        func helloDeclaresWidgets() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            let hello = try harness.start()

            #expect(hello.version == .current)
            #expect(hello.bundleIdentifier == RuntimeHarness.bundleIdentifier)
            #expect(hello.role == .widgetKit)
            #expect(hello.sessionIdentifiers.isEmpty)
            #expect(
                hello.widgets.map(\.kind) == [
                    "Scores", "AfterPolicy", "NeverPolicy", "Twice", "Mirrored", "Emoji", "Broken", "Huge", "Reloading"
                ])

            let scores = try #require(hello.widgets.first)
            #expect(scores.displayName == "Scores")
            #expect(scores.summary == "The leader of the week.")
            #expect(scores.supportedFamilies == ["systemSmall", "systemMedium"])

            let allFamilies = WidgetFamily.allCases.map(\.rawValue)
            #expect(hello.widgets[1].displayName == "")
            #expect(hello.widgets[1].supportedFamilies == allFamilies)
            #expect(
                allFamilies == [
                    "systemSmall", "systemMedium", "systemLarge", "systemExtraLarge",
                    "accessoryCircular", "accessoryRectangular", "accessoryInline"
                ])
            // A user-defined configuration is followed through its body.
            #expect(hello.widgets[6].displayName == "Broken")
            #expect(harness.finish() == .hostGone("the host closed the IPC socket"))
        }

        @Test("a single @main-style widget and builder branches")
        func singleWidgetAndBranches() async throws {
            let single = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            #expect(try single.start().widgets.map(\.kind) == ["Scores"])
            _ = single.finish()

            let conditional = try await RuntimeHarness.serving(widget: ConditionalWidget.self)
            #expect(try conditional.start().widgets.map(\.kind) == ["Conditional"])
            _ = conditional.finish()

            let bundle = try await RuntimeHarness.serving(ConditionalBundle.self)
            #expect(try bundle.start().widgets.map(\.kind) == ["Scores"])
            _ = bundle.finish()

            let contentMargins = await MainActor.run { descriptors(of: ConditionalWidget()).map(\.contentMarginsDisabled) }
            #expect(contentMargins == [true])
        }

        @Test("the welcome is stored")
        func welcomeIsStored() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            try harness.handshake()
            // A reply proves the welcome was handled before the request.
            let (_, reply) = try harness.placeholder(RuntimeHarness.activation("Scores"))
            guard case .entryReply = reply else {
                Issue.record("expected an entry reply, got \(reply)")
                return
            }
            #expect(harness.runtime.welcome == harness.welcome)
            _ = harness.finish()
        }

        @Test("an error instead of welcome is a refusal")
        func errorBeforeWelcomeIsRefusal() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            _ = try harness.start()
            try harness.host.send(.error(ErrorReport(code: .unsupportedVersion, message: "protocol 9.0 is not spoken here")))
            let ending = try #require(harness.endings.wait())
            guard case .refused(let reason) = ending else {
                Issue.record("expected a refusal, got \(ending)")
                return
            }
            #expect(reason.contains("protocol 9.0 is not spoken here"))
            #expect(harness.host.receivesEndOfStream())
        }

        @Test("a request before welcome breaks the protocol")
        func requestBeforeWelcome() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            _ = try harness.start()
            try harness.host.send(.timelineRequest(RequestID(1), RuntimeHarness.activation("Scores")))
            #expect(harness.endings.wait() == .protocolViolation("the host sent timelineRequest before welcome"))
            #expect(harness.host.receivesEndOfStream())
        }

        @Test("a second welcome breaks the protocol")
        func secondWelcome() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            try harness.handshake()
            try harness.host.send(.welcome(harness.welcome))
            #expect(harness.endings.wait() == .protocolViolation("the host sent welcome a second time"))
        }

        @Test("a message only an extension sends breaks the protocol")
        func extensionMessageFromHost() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            try harness.handshake()
            try harness.host.send(.reloadAllTimelines)
            #expect(harness.endings.wait() == .protocolViolation("the host sent reloadAllTimelines, which only an extension sends"))
        }

        @Test("bytes that do not decode break the protocol")
        func garbageFromHost() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            try harness.handshake()
            try harness.host.sendBytes([0x7F, 0xFF, 0xFF, 0xFF, 0x12, 0x00])
            let ending = try #require(harness.endings.wait())
            guard case .protocolViolation(let reason) = ending else {
                Issue.record("expected a protocol violation, got \(ending)")
                return
            }
            #expect(reason.contains("oversize frame"))
            #expect(harness.host.receivesEndOfStream())
        }

        @Test("the host closing its end is the host gone, and the runtime closes its end")
        func hostGone() async throws {
            let harness = try await RuntimeHarness.serving(widget: ScoreWidget.self)
            try harness.handshake()
            #expect(harness.finish() == .hostGone("the host closed the IPC socket"))
            #expect(harness.endings.all.count == 1)
        }
    }
}
