import Dispatch
import Foundation
import SandglassIPC
import Synchronization
import XCTest

@testable import WidgetKit

/// An extension's main thread reads the host's first frames before it serves the main queue;
/// what those frames ask of the main actor waits until the reader thread has the socket.
/// (XCTest: its test methods run on the main thread, which `MainThread` is about.)
final class MainThreadTests: XCTestCase {
    /// Blocks asked for on the main thread while it holds back wait for it; other threads' go
    /// to the main queue; afterwards, a block asked for on the main thread runs at once.
    func testHoldingBack() throws {
        try XCTSkipUnless(Thread.isMainThread, "XCTest ran the test off the main thread")
        let ran = Ran()
        let queued = expectation(description: "the other thread's block ran on the main queue")
        let handedOver = DispatchSemaphore(value: 0)
        let held = MainActor.assumeIsolated {
            MainThread.holdingBack {
                MainThread.run { ran.append("held") }
                DispatchQueue.global().async {
                    MainThread.run {
                        ran.append("queued")
                        queued.fulfill()
                    }
                    handedOver.signal()
                }
                _ = handedOver.wait(timeout: .now() + HostEnd.patience)
            }
        }
        XCTAssertEqual(held.count, 1)
        XCTAssertEqual(ran.entries, [], "nothing runs while the main thread holds back")
        MainActor.assumeIsolated {
            for body in held { body() }
        }
        MainThread.run { ran.append("inline") }
        XCTAssertEqual(ran.entries, ["held", "inline"])
        wait(for: [queued], timeout: 10)
        XCTAssertEqual(ran.entries, ["held", "inline", "queued"])
    }
}

extension MainThreadTests {
    /// A relaunch's first frames — the welcome and the background-events request, in one write —
    /// are read by the main thread, and the `onBackgroundURLSessionEvents` block runs there; the
    /// block waits for an answer from the host (a new task's identifier, given in answer to
    /// `createTask`), which only the reader thread can read: it must have the socket by then.
    func testEventsBlockOnTheMainThreadWaitsForTheHost() throws {
        try XCTSkipUnless(Thread.isMainThread, "XCTest ran the test off the main thread")
        let widgets = MainActor.assumeIsolated { descriptors(of: WaitingEventsWidget()) }
        let harness = Unchecked(try RuntimeHarness(widgets: widgets))
        let identifier = WaitingEventsWidget.prefix + UUID().uuidString.prefix(8)
        let hostDone = expectation(description: "the host's side of the conversation")
        let hostProblem = Mutex<String?>(nil)
        DispatchQueue.global().async {
            defer { hostDone.fulfill() }
            do {
                let host = harness.value.host
                guard case .hello = try host.receive() else { throw HostEndError(description: "no hello") }
                try host.sendBytes(
                    Frame.encode(.welcome(harness.value.welcome))
                        + Frame.encode(.backgroundEventsRequest(RequestID(1), identifier: identifier)))
                try host.expect("backgroundEventsReply") { message -> Void? in
                    if case .backgroundEventsReply(RequestID(1), accepted: true) = message { return () }
                    return nil
                }
                try host.expectAttach(identifier)
                try host.send(.sessionAttached(identifier: identifier, tasks: []))
                try harness.value.answerCreateTask(with: 42)
                try host.expectEventsFinished(identifier)
            } catch {
                hostProblem.withLock { $0 = "\(error)" }
            }
        }
        MainActor.assumeIsolated { harness.value.runtime.startOnMainThread() }
        XCTAssertEqual(WaitingEventsWidget.taskIdentifiers.withLock { $0 }, [42], "the block read the host's answer")
        wait(for: [hostDone], timeout: 30)
        XCTAssertNil(hostProblem.withLock { $0 })
        XCTAssertNotNil(harness.value.finish())
    }
}

/// A widget whose events block waits for the host: it reads a new task's identifier.
struct WaitingEventsWidget: Widget {
    nonisolated static let prefix = "com.example.tests.waiting."
    /// The identifiers the block read, in order.
    nonisolated static let taskIdentifiers = Mutex<[Int]>([])

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Waiting", provider: ScoreProvider())
            .onBackgroundURLSessionEvents { identifier in
                identifier.hasPrefix(Self.prefix)
            } _: { identifier, completion in
                let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: nil, delegateQueue: nil)
                let task = session.downloadTask(with: URL(string: "http://127.0.0.1:9/feed")!)
                let taskIdentifier = task.taskIdentifier // waits for the host's taskCreated
                Self.taskIdentifiers.withLock { $0.append(taskIdentifier) }
                completion()
            }
    }
}

/// A value handed to another thread by a test that keeps it alive.
private final class Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What ran, in order.
private final class Ran: Sendable {
    private let recorded = Mutex<[String]>([])

    func append(_ entry: String) { recorded.withLock { $0.append(entry) } }

    var entries: [String] { recorded.withLock { $0 } }
}
