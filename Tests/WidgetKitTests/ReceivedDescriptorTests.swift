import Foundation
import Glibc
import SandglassIPC
import Testing

@testable import WidgetKit

/// The SDK closes every descriptor the host sends that no `downloadFinished` takes, and the one a
/// `downloadFinished` takes once its file is made.
@Suite("Received descriptors")
struct ReceivedDescriptorTests {
    /// Whether a descriptor of this process is open on `path` (a unique file of the test).
    private func isOpen(_ path: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }
    }

    /// Waits, with a deadline, until no descriptor of this process is open on `path`.
    private func closed(_ path: String, within timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isOpen(path) {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    @Test("a descriptor sent with a frame other than downloadFinished is closed")
    func unusedDescriptorClosed() async throws {
        let harness = try await RuntimeHarness.network()
        let path = try downloadedFile("not for you")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try harness.host.send(.ping(41), passingFileAt: path)
        try harness.host.expect("pong 41") { message -> Void? in
            if case .pong(41) = message { return () }
            return nil
        }
        #expect(await closed(path), "the SDK kept a descriptor no frame took")
        _ = harness.finish()
    }

    @Test("downloadFinished for a task the extension does not know: the file is made and removed, the descriptor closed")
    func unknownTaskDescriptorClosed() async throws {
        let harness = try await RuntimeHarness.network()
        let path = try downloadedFile("orphan body")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let response = HTTPResponsePayload(url: "http://127.0.0.1/x", statusCode: 200, headers: [], expectedContentLength: 11)
        try harness.host.send(
            .downloadFinished(session: "", taskIdentifier: 999, nil, file: "CFNetworkDownload_inline_1_999.tmp", response),
            passingFileAt: path)
        try harness.host.send(.ping(42))
        try harness.host.expect("pong 42") { message -> Void? in
            if case .pong(42) = message { return () }
            return nil
        }
        #expect(await closed(path))
        _ = harness.finish()
    }
}
