import Foundation
import Glibc
import ProbeSupport
import Synchronization
import Testing

@testable import SandglassHost

/// The measure of a container: allocated bytes and entries, never through a symbolic link,
/// stopping once past the entry limit.
@Suite("Container usage")
struct ContainerUsageTests {
    private func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        return dir
    }

    @Test("files and directories are counted with their blocks; a symbolic link is one entry, never followed")
    func counts() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(repeating: 1, count: 1 << 20).write(to: URL(fileURLWithPath: dir + "/a/b/one"))
        try Data(repeating: 2, count: 4096).write(to: URL(fileURLWithPath: dir + "/two"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/root", withDestinationPath: "/usr")
        let usage = try #require(ContainerUsage.measure(dir, inodeLimit: 10_000))
        #expect(usage.inodes == 5) // a, a/b, a/b/one, two, a/root
        #expect(usage.bytes >= (1 << 20) + 4096)
        #expect(usage.bytes < 2 << 20, "the link to /usr was followed")
        #expect(!usage.stoppedEarly)
        var budgets = Budgets()
        budgets.containerBytes = 1 << 20
        #expect(usage.isOver(budgets))
        budgets.containerBytes = 4 << 20
        #expect(!usage.isOver(budgets))
        budgets.containerInodes = 4
        #expect(usage.isOver(budgets))
    }

    @Test(
        "a directory the host may not read is over the quota, not skipped: an extension of a host not running as root could hide its files by their mode",
        .enabled(if: getuid() == 0, "drops a root thread's capabilities to meet the modes as their owner")
    )
    func unreadableIsOver() throws {
        let dir = try scratch()
        defer {
            chmod(dir + "/a/hidden", 0o700)
            try? FileManager.default.removeItem(atPath: dir)
        }
        try FileManager.default.createDirectory(atPath: dir + "/a/hidden", withIntermediateDirectories: true)
        try Data(repeating: 1, count: 1 << 20).write(to: URL(fileURLWithPath: dir + "/a/hidden/big"))
        #expect(chmod(dir + "/a/hidden", 0o300) == 0) // its owner may still write and pass through
        // On a thread of its own without capabilities, as a host that is not root measures.
        let measured = Mutex<ContainerUsage??>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            guard probe_drop_thread_capabilities() == 0 else { return }
            let usage = ContainerUsage.measure(dir, inodeLimit: 10_000)
            measured.withLock { $0 = .some(usage) }
        }
        thread.start()
        done.wait()
        let usage = try #require(measured.withLock { $0 } ?? nil, "the thread could not drop its capabilities or measure")
        var budgets = Budgets()
        budgets.containerBytes = 64 << 20
        #expect(usage.isOver(budgets), "\(usage.summary): the hidden megabyte went uncounted and nothing said so")
        #expect(usage.summary.contains("may not read"), "\(usage.summary)")
    }

    @Test("the walk stops once past the entry limit")
    func stopsAtTheLimit() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for n in 0..<50 { FileManager.default.createFile(atPath: dir + "/f\(n)", contents: nil) }
        let usage = try #require(ContainerUsage.measure(dir, inodeLimit: 10))
        #expect(usage.inodes == 11)
        #expect(usage.stoppedEarly)
        #expect(ContainerUsage.measure(dir + "/missing", inodeLimit: 10) == nil)
    }
}
