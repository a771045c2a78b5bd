import Foundation
import Glibc
import SandglassHost
import Testing

/// An extension that means to outlive its host — it clears its parent-death signal, ignores
/// SIGPIPE and blocks in an atexit handler (Outliving.app) — dies with it all the same, and the
/// next host on the data directory finds nothing of it: no process, no cgroup.
@Suite("Host death", .serialized, .timeLimit(.minutes(2)))
struct HostDeathTests {
    /// The directories of the cgroups `pid` is in (memory and pids on v1, the one group on v2).
    static func cgroupDirectories(of pid: Int32) -> [String] {
        guard let mountinfo = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8),
            let membership = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8)
        else { return [] }
        var v1: [String: String] = [:]
        var v2: String?
        for line in mountinfo.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let left = halves[0].split(separator: " "), right = halves[1].split(separator: " ")
            guard left.count >= 5, right.count >= 3 else { continue }
            if right[0] == "cgroup2" { v2 = v2 ?? String(left[4]) }
            if right[0] == "cgroup" {
                for option in right[2].split(separator: ",") where option == "memory" || option == "pids" {
                    v1[String(option)] = String(left[4])
                }
            }
        }
        var dirs: [String] = []
        for line in membership.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].contains("sandglass-") else { continue }
            if parts[0] == "0", let v2 { dirs.append(v2 + parts[2]) }
            for controller in parts[1].split(separator: ",") { if let root = v1[String(controller)] { dirs.append(root + parts[2]) } }
        }
        return dirs
    }

    @Test("SIGKILL of the host while an extension that cleared its parent-death signal runs: nothing of it is left once a new host starts")
    func nothingOutlivesTheHost() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("outliving-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var extensionPid: Int32?
        defer {
            // Whatever the outcome, nothing of the test stays behind.
            if let pid = extensionPid, processExists(pid) { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: dir)
        }
        let app = try Examples.app("Outliving.app")
        func run(log: String) throws -> ChildProcess {
            try ChildProcess(
                CommandLineTests.sandglass, ["run", app, "--data-directory", dir + "/data", "--log", log, "--duration", "90s", "--quiet"],
                environment: testEnvironment)
        }
        let first = try run(log: dir + "/first.jsonl")
        defer { first.signal(SIGKILL); first.wait() }
        let tried = try await HostRestartTests.waitInLog(dir + "/first.jsonl") {
            ($0["event"] as? String) == "log" && (($0["message"] as? String) ?? "").hasPrefix("outliving:")
        }
        let pid = Int32(try #require(tried["pid"] as? Int))
        extensionPid = pid
        let groups = Self.cgroupDirectories(of: pid)
        #expect(!groups.isEmpty, "the extension runs in cgroups of its host")
        // The attempt was denied and recorded.
        #expect((tried["message"] as? String ?? "").contains("parent-death signal: errno \(EPERM)"))
        let denied = HostRestartTests.events(dir + "/first.jsonl").first {
            ($0["event"] as? String) == "sandbox.denied" && ($0["syscall"] as? String) == "prctl"
        }
        #expect(denied?["pid"] as? Int == Int(pid))

        first.signal(SIGKILL)
        first.wait()

        let second = try run(log: dir + "/second.jsonl")
        defer { second.signal(SIGKILL); second.wait() }
        _ = try await HostRestartTests.waitInLog(dir + "/second.jsonl") { ($0["event"] as? String) == "spawned" }
        let deadline = ContinuousClock.now + .seconds(5)
        while processExists(pid) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!processExists(pid), "extension pid \(pid) outlived its host")
        for group in groups {
            #expect(!FileManager.default.fileExists(atPath: group), "the dead host's cgroup \(group) is left")
        }
        second.signal(SIGTERM)
        second.wait()
    }
}
