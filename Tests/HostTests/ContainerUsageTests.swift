import Foundation
import Glibc
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
