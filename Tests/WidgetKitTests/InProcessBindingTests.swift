import Dispatch
import Foundation
import SandglassIPC
import SwiftUI
import Synchronization
import Testing

@testable import WidgetKit

extension RuntimeTests {
    /// The code an in-process runtime runs off its request queue reaches that runtime: the
    /// tasks its provider code starts, and the delegate calls of the sessions made in it. (In
    /// an extension's process these reach the process's runtime anyway; beside others, in the
    /// host's embedded tests, they would reach none.)
    @Suite("in-process runtime binding")
    struct InProcessBindingTests {
        /// An in-process runtime serving `W`, welcomed, with the test as its host.
        private static func inProcess<W: Widget>(_ widget: W.Type) async throws -> (HostEnd, InProcessRuntime, String) {
            let (host, fd) = try HostEnd.makePair()
            let widgets = await MainActor.run { InProcessRuntime.Widgets(widget: W.self) }
            let runtime = InProcessRuntime(widgets: widgets, bundleIdentifier: "com.example.bound", environment: [:], fd: fd) { _ in }
            runtime.start()
            _ = try host.receive() // hello
            let container = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-bound-\(UUID().uuidString.prefix(8))")
                .path
            try host.send(.welcome(Welcome(version: .current, clockMode: .real, clockEpoch: 1_700_000_000, containerPath: container)))
            return (host, runtime, container)
        }

        @Test("a Task started in getTimeline requests through the runtime that called the provider")
        func providerTaskRequestsThroughItsRuntime() async throws {
            let (host, runtime, container) = try await Self.inProcess(TaskFetchWidget.self)
            defer {
                host.close()
                try? FileManager.default.removeItem(atPath: container)
            }
            let request = RequestID(1)
            try host.send(.timelineRequest(request, RuntimeHarness.activation("TaskFetch")))
            let (id, payload) = try host.expect("createTask") { message -> (RequestID, TaskRequestPayload)? in
                if case .createTask(let id, let payload) = message { return (id, payload) }
                return nil
            }
            #expect(payload.session == "" && payload.request.url == TaskFetchWidget.url)
            try host.send(.taskCreated(id, taskIdentifier: 7))
            try host.expect("resumeTask") { message -> Void? in
                if case .resumeTask("", 7) = message { return () }
                return nil
            }
            let response = okResponse(TaskFetchWidget.url, length: 2)
            try host.send(.taskResponse(session: "", taskIdentifier: 7, response))
            try host.send(.taskData(session: "", taskIdentifier: 7, Array("42".utf8)))
            try host.send(.taskCompleted(session: "", taskIdentifier: 7, nil, error: nil, response))
            let timeline = try host.expect("timelineReply") { message -> TimelinePayload? in
                if case .timelineReply(request, let timeline) = message { return timeline }
                return nil
            }
            #expect(timeline.entries.count == 1)
            #expect(String(decoding: timeline.entries[0].json, as: UTF8.self).contains("\"bytes\":2"))
            withExtendedLifetime(runtime) {}
        }

        @Test("a delegate call of a session the handler made reaches the handler's runtime (a reload from urlSessionDidFinishEvents)")
        func delegateCallReachesItsRuntime() async throws {
            let (host, runtime, container) = try await Self.inProcess(BoundSessionWidget.self)
            defer {
                host.close()
                try? FileManager.default.removeItem(atPath: container)
            }
            let identifier = BoundSessionWidget.identifier
            try host.send(.backgroundEventsRequest(RequestID(1), identifier: identifier))
            try host.expect("backgroundEventsReply") { message -> Void? in
                if case .backgroundEventsReply(_, accepted: true) = message { return () }
                return nil
            }
            try host.expectAttach(identifier)
            try host.send(.sessionAttached(identifier: identifier, tasks: []))
            try host.send(.allEventsDelivered(identifier: identifier))
            // The delegate's reload and the task list it asks for, through this runtime.
            try host.expect("reloadTimelines") { message -> Void? in
                if case .reloadTimelines(kind: "Bound") = message { return () }
                return nil
            }
            let listing = try host.expect("getTasks") { message -> RequestID? in
                if case .getTasks(let id, session: identifier) = message { return id }
                return nil
            }
            try host.send(.taskList(listing, []))
            try host.expect("reloadAllTimelines from getAllTasks' completion handler") { message -> Void? in
                if case .reloadAllTimelines = message { return () }
                return nil
            }
            withExtendedLifetime(runtime) {}
        }
    }
}

struct TaskFetchEntry: TimelineEntry, Codable {
    let date: Date
    let bytes: Int
}

/// `getTimeline` fetches in a `Task`, off the request queue.
struct TaskFetchWidget: Widget {
    nonisolated static let url = "http://127.0.0.1:9/task-fetch"

    struct Provider: TimelineProvider {
        func placeholder(in context: Context) -> TaskFetchEntry { TaskFetchEntry(date: referenceDate, bytes: 0) }

        func getSnapshot(in context: Context, completion: @escaping @Sendable (TaskFetchEntry) -> Void) {
            completion(placeholder(in: context))
        }

        func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<TaskFetchEntry>) -> Void) {
            Task {
                let data = try? await URLSession.shared.data(from: URL(string: TaskFetchWidget.url)!).0
                completion(Timeline(entries: [TaskFetchEntry(date: referenceDate, bytes: data?.count ?? -1)], policy: .never))
            }
        }
    }

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "TaskFetch", provider: Provider()) { _ in EmptyView() }
    }
}

/// Its handler makes a background session whose delegate reloads at `urlSessionDidFinishEvents`
/// (on the delegate queue), then lists the session's tasks and reloads again from the completion.
struct BoundSessionWidget: Widget {
    nonisolated static let identifier = "com.example.tests.bound"

    final class Delegate: NSObject, URLSessionDelegate, @unchecked Sendable {
        func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            WidgetCenter.shared.reloadTimelines(ofKind: "Bound")
            session.getAllTasks { _ in WidgetCenter.shared.reloadAllTimelines() }
        }
    }

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Bound", provider: ScoreProvider()) { _ in EmptyView() }
            .onBackgroundURLSessionEvents(matching: Self.identifier) { identifier, _ in
                _ = URLSession(configuration: .background(withIdentifier: identifier), delegate: Delegate(), delegateQueue: nil)
            }
    }
}

extension RuntimeTests.InProcessBindingTests {
    @Test("a request waiting for the host when its runtime ends fails at once (connectionEnded), not at its deadline")
    func requestEndsWithItsRuntime() async throws {
        // In an extension's process the process ends with its runtime; a runtime served
        // in-process must not leave the caller's thread (perhaps a Swift concurrency thread the
        // host shares) blocked until the deadline.
        let harness = try RuntimeHarness(widgets: [])
        try harness.handshake()
        let requests = HostRequests(deadline: 60)
        let runtime = harness.runtime
        let started = ContinuousClock.now
        let waiting = OwnThread { requests.send(on: runtime) { .getTasks($0, session: "com.example.ends") } }
        _ = try harness.host.expect("getTasks") { message -> Void? in
            if case .getTasks = message { return () }
            return nil
        }
        harness.host.close() // the host goes without answering: the runtime's reader ends it
        let result = await waiting.value
        guard case .failure(.connectionEnded) = result else {
            Issue.record("the request ended with \(result), not connectionEnded")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
