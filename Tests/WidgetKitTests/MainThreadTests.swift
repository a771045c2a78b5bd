import Dispatch
import Foundation
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
                _ = handedOver.wait(timeout: .now() + 10)
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

/// What ran, in order.
private final class Ran: Sendable {
    private let recorded = Mutex<[String]>([])

    func append(_ entry: String) { recorded.withLock { $0.append(entry) } }

    var entries: [String] { recorded.withLock { $0 } }
}
