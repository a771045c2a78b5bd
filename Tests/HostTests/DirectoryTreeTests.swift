import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// What an extension leaves in its container, removed by the host: by descriptor, at any depth,
/// never through a link, whatever the modes.
@Suite("Directory trees")
struct DirectoryTreeTests {
    /// A fresh directory in the temporary directory.
    private func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Nests `levels` directories named `name` under `path`; at the bottom, a FIFO, a link to
    /// `outside` and a directory of mode 0.
    private func nest(_ levels: Int, named name: String, under path: String, linkTo outside: String) {
        var fd = open(path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<levels where fd >= 0 {
            mkdirat(fd, name, 0o700)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        mkfifoat(fd, "pipe", 0o600)
        symlinkat(outside, fd, "outside")
        mkdirat(fd, "closed", 0)
        close(fd)
    }

    @Test(
        "a tree nested 3,000 levels deep, and one past PATH_MAX, go whole, from a task's small stack: no walk holds more than 64 descriptors; what a link leads to stays"
    )
    func deepTrees() async throws {
        let canary = try scratch()
        defer { DirectoryTree.remove(canary) }
        FileManager.default.createFile(atPath: canary + "/precious", contents: Data("precious".utf8))
        for (levels, name) in [(3_000, "d"), (20, String(repeating: "n", count: 250))] {
            let tree = try scratch()
            nest(levels, named: name, under: tree, linkTo: canary)
            // On a thread of its own (its stack is a task's size, 512 KiB), off the pool the
            // other suites run on.
            let left = await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: DirectoryTree.remove(tree)) }
                thread.stackSize = 512 << 10
                thread.start()
            }
            #expect(left.isEmpty, "\(left.prefix(3))")
            #expect(!FileManager.default.fileExists(atPath: tree), "\(levels) levels of \(name.count)-byte names stayed")
        }
        #expect(FileManager.default.fileExists(atPath: canary + "/precious"))
    }

    @Test("a directory closed to its owner is opened to it again, and a link in its place never: what it leads to keeps its mode")
    func openToOwner() throws {
        let tree = try scratch()
        let outside = try scratch()
        defer {
            DirectoryTree.remove(tree)
            DirectoryTree.remove(outside)
        }
        chmod(outside, 0o755)
        let fd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(fd) }
        mkdirat(fd, "closed", 0)
        symlinkat(outside, fd, "swapped")
        var info = stat()
        #expect(DirectoryTree.openToOwner(fd, "closed"))
        #expect(fstatat(fd, "closed", &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(!DirectoryTree.openToOwner(fd, "swapped"), "a link was followed")
        #expect(stat(outside, &info) == 0 && info.st_mode & 0o777 == 0o755, "the link's target was changed")
    }
}
