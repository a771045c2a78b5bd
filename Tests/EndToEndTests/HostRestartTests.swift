import Foundation
import Glibc
import SandglassHost
import SandglassTesting
import Testing

/// The death of the host loses nothing: `sandglass run` is SIGKILLed in the middle of a
/// download; a second run on the same data directory resumes it from the journal and delivers
/// its events.
@Suite("Host restart")
struct HostRestartTests {
    /// Lines of a JSON-lines log as dictionaries (a partial last line is skipped).
    static func events(_ path: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits (polling the file, with a deadline) until its log has an event matching `predicate`;
    /// with `host`, fails at once when that host process has ended.
    static func waitInLog(
        _ path: String, of host: ChildProcess? = nil, timeout: Duration = .seconds(90), _ predicate: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = events(path).first(where: predicate) { return event }
            if let end = host?.wait(timeout: .zero) { throw HostDied(termination: end) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HostError.timedOut(timeout)
    }

    struct HostDied: Error, CustomStringConvertible {
        let termination: ChildProcess.Termination
        var description: String { "the host process ended: \(termination)" }
    }

    @Test("SIGKILL of the host mid-download: the next host resumes the download (Range) and delivers the events")
    func resumeAfterHostDeath() async throws {
        let server = try await FixtureServer.start()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID().uuidString.prefix(8))").path
        defer {
            try? FileManager.default.removeItem(atPath: dir)
        }
        let app = try Examples.app("Downloader.app")
        // About 20 s of body: the host is killed well before the end, even on a loaded machine
        // (at 6 s, a test starved by the suites beside it saw its first progress only after the end).
        let url = server.url("/bytes/400000?chunk=4096&interval=200")
        func run(log: String, duration: String) throws -> ChildProcess {
            try ChildProcess(
                CommandLineTests.sandglass,
                [
                    "run", app, "--data-directory", dir + "/data", "--env", "SANDGLASS_FIXTURE_URL=\(url)",
                    "--log", log, "--duration", duration, "--quiet"
                ], environment: testEnvironment)
        }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let first = try run(log: dir + "/first.jsonl", duration: "60s")
        _ = try await Self.waitInLog(dir + "/first.jsonl") {
            ($0["event"] as? String) == "download.progress" && (($0["received"] as? Int) ?? 0) > 0
        }
        let spawned = Self.events(dir + "/first.jsonl").compactMap { $0["event"] as? String == "spawned" ? $0["pid"] as? Int : nil }
        first.signal(SIGKILL)
        #expect(first.wait() == .signalled(SIGKILL))
        #expect(!Self.events(dir + "/first.jsonl").contains { ($0["event"] as? String) == "download.finished" })
        // Its extension died with it (PR_SET_PDEATHSIG).
        for pid in spawned {
            let deadline = ContinuousClock.now + .seconds(5)
            while processExists(Int32(pid)) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(!processExists(Int32(pid)), "extension pid \(pid) outlived its host")
        }

        let second = try run(log: dir + "/second.jsonl", duration: "60s")
        defer { second.signal(SIGKILL); second.wait() }
        let recovered = try await Self.waitInLog(dir + "/second.jsonl") { ($0["event"] as? String) == "task.recovered" }
        #expect((recovered["bytesOnDisk"] as? Int ?? 0) > 0)
        let started = try await Self.waitInLog(dir + "/second.jsonl") { ($0["event"] as? String) == "download.started" }
        #expect((started["resumeFrom"] as? Int ?? 0) > 0, "the download resumed where the dead host left it")
        let finished = try await Self.waitInLog(dir + "/second.jsonl") { ($0["event"] as? String) == "download.finished" }
        #expect(finished["bytes"] as? Int == 400_000)
        let acknowledged = try await Self.waitInLog(dir + "/second.jsonl") { ($0["event"] as? String) == "events.finished" }
        #expect(acknowledged["acknowledged"] as? Int == 2)
        #expect(server.requests.contains { $0.range != nil })
        second.signal(SIGTERM)
        second.wait()
        await server.stop()
    }
}
