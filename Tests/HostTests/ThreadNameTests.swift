import CSandbox
import Foundation
import Testing

@testable import SandglassHost

/// The host's threads carry their names into the kernel, where top, gdb and perf read them.
@Suite("Thread names")
struct ThreadNameTests {
    /// The kernel's names of this process's threads.
    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test("an event loop's thread is named as the loop, cut to the kernel's 15 bytes")
    func loopThread() throws {
        let loop = try EventLoop(name: "named-loop-test-\(getpid())")
        defer { loop.shutdown() }
        #expect(threadNames().contains(String("named-loop-test-\(getpid())".prefix(15))))
    }
}
