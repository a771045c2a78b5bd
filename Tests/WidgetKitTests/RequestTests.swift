import SandglassIPC
import Testing

@testable import WidgetKit

extension RuntimeTests {
    @Suite("placeholder, snapshot and timeline requests")
    struct RequestTests {
        @Test("placeholder: an entry reply with the entry's JSON, date, relevance and text")
        func placeholder() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (id, reply) = try harness.placeholder(RuntimeHarness.activation("Scores", family: "systemSmall"))
            guard case .entryReply(let replyID, let entry) = reply else {
                Issue.record("expected an entry reply, got \(reply)")
                return
            }
            #expect(replyID == id)
            #expect(entry.date == referenceDate.timeIntervalSince1970)
            #expect(entry.relevance == RelevancePayload(score: 0, duration: 300))
            #expect(entry.text == "—: 0")
            let json = try jsonObject(entry.json)
            #expect(json["leader"] as? String == "—")
            #expect(json["date"] as? String == "2025-06-15T15:06:40Z")
            #expect(json["family"] as? String == "systemSmall")
            // No size from the host: the family's iPhone size.
            #expect(json["width"] as? Double == 170)
            #expect(json["height"] as? Double == 170)
            _ = harness.finish()
        }

        @Test("snapshot: isPreview and the display size reach the provider")
        func snapshot() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let preview = RuntimeHarness.activation("Scores", family: "systemMedium", isPreview: true, width: 400, height: 180)
            let (id, reply) = try harness.snapshot(preview)
            guard case .entryReply(let replyID, let entry) = reply else {
                Issue.record("expected an entry reply, got \(reply)")
                return
            }
            #expect(replyID == id)
            #expect(entry.text == "Preview: 42")
            let json = try jsonObject(entry.json)
            #expect(json["width"] as? Double == 400)
            #expect(json["height"] as? Double == 180)

            let (_, live) = try harness.snapshot(RuntimeHarness.activation("Scores"))
            guard case .entryReply(_, let liveEntry) = live else {
                Issue.record("expected an entry reply, got \(live)")
                return
            }
            #expect(liveEntry.text == "Live: 42")
            _ = harness.finish()
        }

        @Test("timeline: every entry in order, with text, and the .atEnd policy")
        func timelineAtEnd() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (id, reply) = try harness.timeline(RuntimeHarness.activation("Scores"))
            guard case .timelineReply(let replyID, let timeline) = reply else {
                Issue.record("expected a timeline reply, got \(reply)")
                return
            }
            #expect(replyID == id)
            #expect(timeline.policy == .atEnd)
            #expect(timeline.entries.map(\.date) == [0, 300, 600].map { referenceDate.timeIntervalSince1970 + $0 })
            #expect(timeline.entries.map(\.text) == ["Ada: 100", "Grace: 101", "Linus: 102"])
            #expect(try timeline.entries.map { try jsonObject($0.json)["score"] as? Int } == [100, 101, 102])
            _ = harness.finish()
        }

        @Test("timeline: .after(date) and .never, without a content closure")
        func timelinePolicies() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (_, after) = try harness.timeline(RuntimeHarness.activation("AfterPolicy"))
            guard case .timelineReply(_, let afterTimeline) = after else {
                Issue.record("expected a timeline reply, got \(after)")
                return
            }
            #expect(afterTimeline.policy == .after(referenceDate.timeIntervalSince1970 + 900))
            #expect(afterTimeline.entries.map(\.text) == [nil])

            let (_, never) = try harness.timeline(RuntimeHarness.activation("NeverPolicy"))
            guard case .timelineReply(_, let neverTimeline) = never else {
                Issue.record("expected a timeline reply, got \(never)")
                return
            }
            #expect(neverTimeline.policy == .never)
            #expect(try jsonObject(neverTimeline.entries[0].json).keys.sorted() == ["date"])
            _ = harness.finish()
        }

        @Test("requests run off the main thread")
        func offMainThread() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (_, placeholder) = try harness.placeholder(RuntimeHarness.activation("Scores"))
            let (_, snapshot) = try harness.snapshot(RuntimeHarness.activation("Scores"))
            let (_, timeline) = try harness.timeline(RuntimeHarness.activation("Scores"))
            var entries: [EntryPayload] = []
            for reply in [placeholder, snapshot, timeline] {
                switch reply {
                case .entryReply(_, let entry): entries.append(entry)
                case .timelineReply(_, let timeline): entries += timeline.entries
                default: Issue.record("unexpected reply \(reply)")
                }
            }
            #expect(entries.count == 5)
            for entry in entries {
                #expect(try jsonObject(entry.json)["onMainThread"] as? Bool == false)
            }
            _ = harness.finish()
        }

        @Test("concurrent requests are all answered, each under its own id")
        func concurrentRequests() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            var sent: Set<RequestID> = []
            for index in 0..<20 {
                let id = harness.makeID()
                sent.insert(id)
                let activation = RuntimeHarness.activation(index.isMultiple(of: 2) ? "Scores" : "Emoji")
                try harness.host.send(index.isMultiple(of: 3) ? .snapshotRequest(id, activation) : .timelineRequest(id, activation))
            }
            var answered: Set<RequestID> = []
            while answered.count < sent.count {
                let reply = try harness.host.receive()
                let id = try #require(reply.requestID)
                #expect(answered.insert(id).inserted)
            }
            #expect(answered == sent)
            _ = harness.finish()
        }

        @Test("a completion called twice: exactly one reply and a warning")
        func completionCalledTwice() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            for (request, call) in [("snapshot", "getSnapshot(in:completion:)"), ("timeline", "getTimeline(in:completion:)")] {
                let id = harness.makeID()
                let activation = RuntimeHarness.activation("Twice")
                try harness.host.send(request == "snapshot" ? .snapshotRequest(id, activation) : .timelineRequest(id, activation))
                var replies: [Message] = []
                var logs: [LogRecord] = []
                while replies.isEmpty || logs.isEmpty {
                    let message = try harness.host.receive()
                    if case .log(let record) = message {
                        logs.append(record)
                    } else {
                        replies.append(message)
                    }
                }
                #expect(
                    logs == [
                        LogRecord(
                            level: .warning,
                            message: "\(call) for kind 'Twice' called its completion a second time; the second call is ignored"
                        )
                    ])
                #expect(replies.count == 1)
                switch replies.first {
                case .entryReply(let replyID, let entry)?:
                    #expect(replyID == id)
                    #expect(entry.date == referenceDate.timeIntervalSince1970)
                case .timelineReply(let replyID, let timeline)?:
                    #expect(replyID == id)
                    #expect(timeline.policy == .atEnd)
                default:
                    Issue.record("unexpected reply \(replies)")
                }
            }
            // Nothing else was queued: the next frame answers the next request.
            let (id, next) = try harness.placeholder(RuntimeHarness.activation("Scores"))
            #expect(next.requestID == id)
            _ = harness.finish()
        }

        @Test("an unknown kind is answered with an error")
        func unknownKind() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (id, reply) = try harness.timeline(RuntimeHarness.activation("NoSuchWidget"))
            guard case .error(let report) = reply else {
                Issue.record("expected an error, got \(reply)")
                return
            }
            #expect(report.requestID == id)
            #expect(report.code == .unknownKind)
            #expect(report.message.hasPrefix("no widget of kind 'NoSuchWidget'; this extension has 'Scores', 'AfterPolicy'"))

            let (familyID, familyReply) = try harness.placeholder(RuntimeHarness.activation("Scores", family: "systemHuge"))
            #expect(
                familyReply
                    == .error(ErrorReport(requestID: familyID, code: .unsupportedRequest, message: "unknown widget family 'systemHuge'")))
            _ = harness.finish()
        }

        @Test("performUpdate is not a widget request")
        func performUpdate() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            try harness.host.send(.performUpdateRequest(RequestID(77)))
            let reply = try harness.host.receive()
            guard case .error(let report) = reply else {
                Issue.record("expected an error, got \(reply)")
                return
            }
            #expect(report.requestID == RequestID(77))
            #expect(report.code == .unsupportedRequest)
            _ = harness.finish()
        }

        @Test("app-intent providers answer through a task, with the default intent")
        func appIntentProvider() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (_, placeholder) = try harness.placeholder(RuntimeHarness.activation("Emoji"))
            guard case .entryReply(_, let placeholderEntry) = placeholder else {
                Issue.record("expected an entry reply, got \(placeholder)")
                return
            }
            #expect(placeholderEntry.text == "? at 1750000000")

            let (_, snapshot) = try harness.snapshot(RuntimeHarness.activation("Emoji"))
            guard case .entryReply(_, let snapshotEntry) = snapshot else {
                Issue.record("expected an entry reply, got \(snapshot)")
                return
            }
            #expect(snapshotEntry.text == "🐉 at 1750000000")
            let configuration = try #require(try jsonObject(snapshotEntry.json)["configuration"] as? [String: Any])
            #expect(configuration["emoji"] as? String == "🐉")

            let (_, timeline) = try harness.timeline(RuntimeHarness.activation("Emoji"))
            guard case .timelineReply(_, let emojiTimeline) = timeline else {
                Issue.record("expected a timeline reply, got \(timeline)")
                return
            }
            #expect(emojiTimeline.entries.map(\.text) == ["🐉 at 1750000000", "🐉 at 1750003600"])
            #expect(emojiTimeline.policy == .after(referenceDate.timeIntervalSince1970 + 7200))
            _ = harness.finish()
        }

        @Test("an entry that does not encode is a provider failure")
        func unencodableEntry() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (id, reply) = try harness.timeline(RuntimeHarness.activation("Broken"))
            guard case .error(let report) = reply else {
                Issue.record("expected an error, got \(reply)")
                return
            }
            #expect(report.requestID == id)
            #expect(report.code == .providerFailed)
            #expect(report.message.hasPrefix("could not encode an entry of type BrokenEntry"))
            _ = harness.finish()
        }

        @Test("a timeline over the frame limit is a provider failure, not a broken frame")
        func oversizeTimeline() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let (id, reply) = try harness.timeline(RuntimeHarness.activation("Huge"))
            guard case .error(let report) = reply else {
                Issue.record("expected an error, got \(reply.type)")
                return
            }
            #expect(report.requestID == id)
            #expect(report.code == .providerFailed)
            #expect(report.message.contains("over the 1048576-byte frame limit"))
            _ = harness.finish()
        }

        @Test("a timeline of more entries than a timeline may have is a provider failure that says the limit")
        func tooManyEntries() async throws {
            let harness = try await RuntimeHarness.serving(widget: ManyEntriesWidget.self)
            try harness.handshake()
            let (id, reply) = try harness.timeline(RuntimeHarness.activation("ManyEntries"))
            guard case .error(let report) = reply else {
                Issue.record("expected an error, got \(reply.type)")
                return
            }
            #expect(report.requestID == id)
            #expect(report.code == .providerFailed)
            #expect(report.message.hasPrefix("the timeline has 4097 entries, over the limit of 4096 a timeline"))
            _ = harness.finish()
        }

        @Test("WidgetCenter reloads reach the host")
        func widgetCenterReloads() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self, installAsCurrent: true)
            try harness.handshake()
            let id = harness.makeID()
            try harness.host.send(.timelineRequest(id, RuntimeHarness.activation("Reloading")))
            #expect(try harness.host.receive() == .reloadTimelines(kind: "Scores"))
            #expect(try harness.host.receive() == .reloadAllTimelines)
            #expect(try harness.host.receive().requestID == id)
            _ = harness.finish()
        }
    }
}

/// A timeline of one entry more than a timeline may have.
struct ManyEntriesWidget: Widget {
    struct Provider: TimelineProvider {
        func placeholder(in context: Context) -> PolicyEntry { PolicyEntry(date: referenceDate) }

        func getSnapshot(in context: Context, completion: @escaping (PolicyEntry) -> Void) {
            completion(placeholder(in: context))
        }

        func getTimeline(in context: Context, completion: @escaping (Timeline<PolicyEntry>) -> Void) {
            let entries = (0...TimelinePayload.maximumEntries).map { PolicyEntry(date: referenceDate.addingTimeInterval(Double($0) * 60)) }
            completion(Timeline(entries: entries, policy: .atEnd))
        }
    }

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "ManyEntries", provider: Provider())
    }
}
