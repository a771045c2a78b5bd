import Foundation
import Glibc
@_spi(Measurements) import SandglassHost
import SandglassTesting
import Testing

/// The root host must never follow a path an extension can change (issue #13): symbolic links
/// planted in a container, where the host used to write download bodies or chown files, must
/// leave everything outside the container untouched. The test plays the extension's part and
/// plants the links itself (as root it can; the extension's user could too, in its container).
@Suite("Containment of the host's file operations", .serialized, .enabled(if: getuid() == 0))
struct IdentityContainmentTests {
    private func withServer(_ body: (FixtureServer) async throws -> Void) async throws {
        let server = try await FixtureServer.start()
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func owner(_ path: String) -> UInt32? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_uid : nil
    }

    @Test(
        "a symlink raced onto the inline download's temporary path does not make the host write the file it points to",
        arguments: Backend.tested)
    func inlineDownloadSymlink(_ backend: Backend) async throws {
        let (directory, file) = try makeVictim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withServer { server in
            // Each round: one inline download, its temporary path swapped with a link to the victim
            // all along (the old host created the file, then opened it again by path).
            for _ in 0..<10 {
                try await withHost(
                    on: backend, apps: [.inlineFetch],
                    {
                        $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/4096")
                        $0.extensionEnvironment["SANDGLASS_FIXTURE_DOWNLOAD"] = "1"
                    }
                ) { host in
                    let bundle = "com.example.inlinefetch.widget"
                    let container = try #require(await host.container(of: bundle))
                    await host.start()
                    let spawned = try await host.waitFor("spawned") { $0.bundle == bundle }
                    let pid = try #require(spawned.pid)
                    let path = container + "/tmp/CFNetworkDownload_inline_\(pid)_1.tmp"
                    try FileManager.default.createSymbolicLink(atPath: container + "/tmp/link", withDestinationPath: file)
                    let swapper = Swapper(path: path, link: container + "/tmp/link", aside: container + "/tmp/aside")
                    swapper.start()
                    // The activation ends either way (the race may cost the extension its file, and
                    // a starved CI machine its time budget); what matters is the victim below.
                    let ended = try? await host.waitFor("activation.end", timeout: .seconds(60)) {
                        $0.bundle == bundle && $0.string("kind") == "timeline"
                    }
                    swapper.stop()
                    #expect(ended != nil, "the timeline activation did not end within 60 s")
                }
                let contents = FileManager.default.contents(atPath: file) ?? Data()
                #expect(contents == Data("precious".utf8), "the host wrote \(contents.count) bytes into \(file)")
                #expect(owner(file) == 0)
                if contents != Data("precious".utf8) { break }
            }
        }
    }

    @Test("an inline download still reaches the extension as a file of its own", arguments: Backend.tested)
    func inlineDownloadDelivered(_ backend: Backend) async throws {
        try await withServer { server in
            try await withHost(
                on: backend, apps: [.inlineFetch],
                {
                    $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/4096")
                    $0.extensionEnvironment["SANDGLASS_FIXTURE_DOWNLOAD"] = "1"
                }
            ) { host in
                await host.start()
                let timeline = try await host.waitFor("timeline", timeout: .seconds(60)) { $0.bundle == "com.example.inlinefetch.widget" }
                #expect(timeline.description.contains("4096 bytes, HTTP 200"), "\(timeline)")
            }
        }
    }

    @Test(
        "a symlink at nsurlsessiond's Downloads directory does not make the host write the body anywhere else",
        arguments: Backend.tested)
    func backgroundDownloadsSymlink(_ backend: Backend) async throws {
        let (directory, _) = try makeVictim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withServer { server in
            try await withHost(
                on: backend, apps: [.downloader],
                {
                    $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/8192")
                }
            ) { host in
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
    }

    @Test("racing the host's preparation of a container with a directory/symlink swap chowns nothing outside it")
    func containerSwapRace() async throws {
        let (directory, file) = try makeVictim()
        for i in 0..<200 { try "x".write(toFile: directory + "/file-\(i)", atomically: false, encoding: .utf8) }
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
        // What the extension could do in its container: a directory with many entries, swapped
        // over and over with a link to the victim, while the host prepares the container again.
        let swapped = container + "/Documents/swap"
        try FileManager.default.createDirectory(atPath: swapped, withIntermediateDirectories: true)
        for i in 0..<200 { try "y".write(toFile: swapped + "/file-\(i)", atomically: false, encoding: .utf8) }
        try FileManager.default.createSymbolicLink(atPath: container + "/Documents/link", withDestinationPath: directory)
        try FileManager.default.createSymbolicLink(atPath: container + "/escape", withDestinationPath: file)
        let swapper = Swapper(path: swapped, link: container + "/Documents/link", aside: container + "/Documents/aside")
        swapper.start()
        for _ in 0..<20 {
            let host = try await ExtensionHost(HostConfiguration(dataDirectory: data))
            try await host.install(app)
            await host.shutdown()
        }
        swapper.stop()
        let chowned = try FileManager.default.contentsOfDirectory(atPath: directory).filter { owner(directory + "/" + $0) != 0 }
        #expect(chowned.isEmpty, "the host chowned \(chowned.count) files outside the container")
        #expect(owner(directory) == 0)
        var st = stat()
        #expect(stat(container, &st) == 0 && SandboxPolicy.standard.identityRange.contains(st.st_uid) && st.st_mode & 0o777 == 0o700)
    }
}

/// Swaps a directory with a symbolic link, over and over, on a thread of its own.
private final class Swapper: @unchecked Sendable {
    private let path: String, link: String, aside: String
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(path: String, link: String, aside: String) {
        self.path = path
        self.link = link
        self.aside = aside
    }

    func start() {
        Thread {
            while self.lock.withLock({ self.running }) {
                rename(self.path, self.aside)
                rename(self.link, self.path)
                rename(self.path, self.link)
                rename(self.aside, self.path)
                sched_yield() // an attacker, not a CPU hog that starves the rest of the suite
            }
            self.done.signal()
        }.start()
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}
