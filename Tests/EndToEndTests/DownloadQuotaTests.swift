import Foundation
import Glibc
import SandglassHost
import SandglassTesting
import Testing

/// What the host holds on its own disk for an extension's downloads: no more than its container
/// may hold (RogueDownloads.app's Hog asks for 28 MiB at once, with a quota of 4 MiB).
@Suite("Download quota", .timeLimit(.minutes(2)))
struct DownloadQuotaTests {
    static let hog = "com.example.roguedownloads.hog"

    @Test("downloads past the container quota fail -1103, not retried: one announced too long at its response, the rest as they pass it")
    func quota() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        var data = ""
        try await withHost({
            data = $0.dataDirectory
            $0.extensionEnvironment["ROGUE_BIG_URL"] = server.url("/bytes/8388608")
            $0.extensionEnvironment["ROGUE_UNSIZED_URL"] = server.url("/bytes/8388608?length=none")
            $0.extensionEnvironment["ROGUE_PART_URL"] = server.url("/bytes/3145728")
            $0.budgetOverrides.idle = .seconds(60)
        }) { host in
            try await host.install(Examples.app("RogueDownloads.app"))
            await host.start()
            let quota: Int64 = 4 << 20
            // The sixth task to end.
            _ = try await host.waitForDistinct(6) { event in
                guard (event.kind == .downloadFinished || event.kind == .downloadFailed) && event.bundle == Self.hog else { return nil }
                return "\(event.int("taskId") ?? -1)"
            }
            let ended = await host.events().filter {
                ($0.kind == .downloadFinished || $0.kind == .downloadFailed) && $0.bundle == Self.hog
            }
            let failed = ended.filter { $0.kind == .downloadFailed }
            let finished = ended.filter { $0.kind == .downloadFinished }
            #expect(finished.count <= 1 && failed.count >= 5, "at most one 3 MiB download fits in 4 MiB: \(finished.count) finished")
            for failure in failed {
                #expect(failure.int("code") == -1103, "\(failure)")
                #expect(failure.int("attempts") == 1, "retried: \(failure)")
            }
            let announced = failed.filter { ($0.string("error") ?? "").contains("announces 8388608 bytes") }
            #expect(announced.count == 1, "the 8 MiB body refused at its response: \(failed.map { $0.string("error") ?? "" })")
            #expect(finished.map { Int64($0.int("bytes") ?? 0) }.reduce(0, +) <= quota)
            // What the host holds now: the finished bodies its events wait with; no partial is left.
            let transfers = data + "/Transfers"
            let held = try FileManager.default.contentsOfDirectory(atPath: transfers).reduce(Int64(0)) { sum, name in
                var info = stat()
                return lstat(transfers + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? sum + Int64(info.st_size) : sum
            }
            #expect(held <= quota, "the host holds \(held) bytes for the extension")
        }
    }
}
