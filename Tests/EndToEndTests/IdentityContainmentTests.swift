import Foundation
import Glibc
@_spi(Measurements) import SandglassHost
import Testing

/// The root host must never follow a path an extension can change (issue #13): symbolic links
/// planted in a container, where the host used to write download bodies or chown files, must
/// leave everything outside the container untouched. The test plays the extension's part and
/// plants the links itself (as root it can; the extension's user could too, in its container).
@Suite("Containment of the host's file operations", .serialized, .enabled(if: getuid() == 0))
struct IdentityContainmentTests {
    /// A root-owned directory outside every container, with one root-owned file.
    private func victim() throws -> (directory: String, file: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("victim-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let file = directory + "/precious"
        try "precious".write(toFile: file, atomically: false, encoding: .utf8)
        return (directory, file)
    }

    private func owner(_ path: String) -> UInt32? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_uid : nil
    }

    @Test("a symlink at the inline download's temporary path does not make the host overwrite the file it points to")
    func inlineDownloadSymlink() async throws {
        let (directory, file) = try victim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        try await withHost({
            // Held a moment before the response: the link is planted in the meantime.
            $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/4096?delay=1500")
            $0.extensionEnvironment["SANDGLASS_FIXTURE_DOWNLOAD"] = "1"
        }) { host in
            try await host.install(Examples.app("InlineFetch.app"))
            let bundle = "com.example.inlinefetch.widget"
            let container = try #require(await host.container(of: bundle))
            await host.start()
            let created = try await host.waitFor("task.created") { $0["inline"] == .bool(true) }
            let pid = try #require(created.pid), task = try #require(created.int("taskId"))
            let link = container + "/tmp/CFNetworkDownload_inline_\(pid)_\(task).tmp"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
            _ = try await host.waitFor("task.finished") { $0["inline"] == .bool(true) }
            let timeline = try await host.waitFor("timeline") { $0.bundle == bundle }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
            #expect(owner(file) == 0)
            // The extension still got its body, as a file of its own.
            #expect(timeline.description.contains("4096 bytes"), "\(timeline)")
        }
    }

    @Test("a symlink at nsurlsessiond's Downloads directory does not make the host write the body anywhere else")
    func backgroundDownloadsSymlink() async throws {
        let (directory, _) = try victim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        try await withHost({
            $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/8192")
        }) { host in
            try await host.install(Examples.app("Downloader.app"))
            let bundle = "com.example.downloader.widget"
            let container = try #require(await host.container(of: bundle))
            let caches = container + "/Library/Caches/com.apple.nsurlsessiond"
            try FileManager.default.createDirectory(atPath: caches, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: caches + "/Downloads", withDestinationPath: directory)
            await host.start()
            _ = try await host.waitFor("event.delivered") { $0.string("callback") == "didFinishDownloadingTo" }
            _ = try await host.waitFor("activation.end") { $0.string("kind") == "backgroundEvents" }
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(entries == ["precious"], "the host wrote into \(directory): \(entries)")
        }
    }

    @Test("links planted in a container are not followed when the host makes the container ready again")
    func containerLinksNotFollowed() async throws {
        let (directory, file) = try victim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("containment-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let app = try Examples.app("InlineFetch.app")
        let bundle = "com.example.inlinefetch.widget"
        var container = ""
        do {
            let host = try await ExtensionHost(HostConfiguration(dataDirectory: data))
            try await host.install(app)
            container = await host.container(of: bundle) ?? ""
            await host.shutdown()
        }
        try #require(!container.isEmpty)
        // Every directory the host used to hand over, swapped for a link to the victim.
        for name in ["tmp", "Documents", "Library/Caches"] {
            try FileManager.default.removeItem(atPath: container + "/" + name)
            try FileManager.default.createSymbolicLink(atPath: container + "/" + name, withDestinationPath: directory)
        }
        try FileManager.default.createSymbolicLink(atPath: container + "/escape", withDestinationPath: file)
        let host = try await ExtensionHost(HostConfiguration(dataDirectory: data))
        try await host.install(app)
        #expect(await host.container(of: bundle) == container)
        await host.shutdown()
        #expect(owner(directory) == 0)
        #expect(owner(file) == 0)
        var st = stat()
        #expect(stat(container, &st) == 0 && SandboxPolicy.standard.identityRange.contains(st.st_uid) && st.st_mode & 0o777 == 0o700)
    }
}
