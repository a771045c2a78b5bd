import Foundation
import SandglassHost
import Testing

/// `sandglass stress` as a user runs it: real host processes SIGKILLed and restarted from their
/// journal, the invariants over the merged log, the summary, the seed that reproduces the
/// choices. Small runs (seconds); the figures in Documentation/Stress.md come from long ones.
@Suite("Stress command", .serialized)
struct StressCommandTests {
    /// A run of `iterations` with `faults`; returns the result and the merged log's events.
    static func stress(
        seed: Int, iterations: Int, faults: String, environment: [String] = []
    ) async throws -> (CommandLineTests.Result, [HostEvent]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sandglass-stress-test-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/merged.jsonl"
        let result = try await offThePool {
            try CommandLineTests.run(
                blocking: [
                    "stress", try Examples.app("Downloader.app"), try Examples.app("Leaderboard.app"),
                    "--seed", String(seed), "--iterations", String(iterations), "--faults", faults,
                    "--data-directory", directory + "/hosts", "--log", log, "--quiet"
                ]
                    + environment.flatMap { ["--env", $0] }, niceness: 10)
        }
        return (result, (try? HostEvent.read(logAt: log)) ?? [])
    }

    @Test("hosts SIGKILLed and restarted from the journal: every invariant holds, the summary and the log say so")
    func hostKillsHold() async throws {
        let (result, events) = try await Self.stress(seed: 11, iterations: 16, faults: "kill,host,network")
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        #expect(result.output.contains("invariants:   all held"), "\(result.output)")
        #expect(
            result.output.contains(
                "guarantees:   0 acknowledged events lost · 0 deliveries after acknowledgement · 0 zombies · 0 leaked descriptors · 0 orphans"
            ))
        #expect(!events.contains { $0.kind == .invariantViolated })
        let ended = events.filter { $0.kind == .hostEnded }
        #expect(ended.filter { $0["killed"] == .bool(true) }.count >= 1, "at least one host died")
        #expect(ended.last?["killed"] == .bool(false), "the last host drained and shut down")
        #expect(events.filter { $0.kind == .runStart }.count == ended.count, "one run.start per host")
        for event in ended {
            #expect(event["survivors"] == .array([]), "no extension outlived host \(event.int("host") ?? -1)")
        }
        let end = try #require(events.last { $0.kind == .stressEnd })
        #expect(end.int("iterations") == 16)
        #expect(events.contains { $0.kind == .hygiene && $0.int("zombies") == 0 })
    }

    @Test("downloads to a slow server that is not the fixture server: the host drains, shuts down and returns to its descriptor baseline")
    func slowServerLeavesNoDescriptor() async throws {
        let server = try SlowHTTPServer(delay: .seconds(1))
        defer { server.stop() }
        // One host (no host fault): it starts on a fresh data directory, so it downloads itself.
        let (result, events) = try await Self.stress(
            seed: 7, iterations: 12, faults: "kill,steps,suspend,network",
            environment: ["SANDGLASS_FIXTURE_URL=\(server.url)/feed"])
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        #expect(result.output.contains("invariants:   all held"), "\(result.output)")
        let finished = events.filter { $0.name == "download.finished" }
        #expect(
            !finished.isEmpty && server.requests >= finished.count,
            "the downloads went to the slow server: \(server.requests) requests, \(finished.count) finished")
        // The host made requests of its own, shut down cleanly and measured itself: no
        // connection, client or file of its network stays open.
        let lastHost = events.lastIndex { $0.name == "run.start" }.map { Array(events[$0...]) } ?? []
        #expect(lastHost.contains { $0.name == "download.started" }, "the last host downloaded too")
        let hygiene = try #require(events.last { $0.name == "hygiene" })
        #expect(hygiene["leaked"] == .array([]), "\(hygiene.jsonLine)")
        #expect(hygiene.int("fds") == hygiene.int("fdBaseline"), "\(hygiene.jsonLine)")
        #expect(!events.contains { $0.name == "invariant.violated" })
    }

    @Test("the same seed makes the same choices: faults, their order and targets, the host deaths")
    func seedReproduces() async throws {
        func choices(_ events: [HostEvent]) -> [String] {
            events.compactMap { event in
                switch event.kind {
                case .stressIteration: "\(event.int("iteration") ?? -1) \(event.string("action") ?? "")"
                case .hostStarted:
                    "host \(event.int("host") ?? -1): \(event.int("first") ?? -1)+\(event.int("iterations") ?? -1), \(event.string("ending") ?? "")"
                default: nil
                }
            }
        }
        let (first, a) = try await Self.stress(seed: 5, iterations: 8, faults: "kill,suspend,host")
        let (second, b) = try await Self.stress(seed: 5, iterations: 8, faults: "kill,suspend,host")
        #expect(first.status == 0 && second.status == 0, "\(first.output)\n\(second.output)")
        #expect(!choices(a).isEmpty)
        #expect(choices(a) == choices(b))
    }

    @Test("on a terminal: a progress line rewritten in place, then the summary")
    func progressOnTerminal() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-stress-tty-\(UUID().uuidString.prefix(8))")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Examples.app("Leaderboard.app")
        let (status, output) = try await offThePool {
            try ProgressTests.onTerminal(blocking: [
                "stress", app, "--seed", "2", "--iterations", "3", "--faults", "kill", "--data-directory", directory
            ])
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains("\r\u{1B}[2K") && output.contains("iteration"), "a rewritten line: \(output.debugDescription)")
        #expect(output.contains("stress summary: 3 chaos iterations"))
    }

    @Test("a log with a violation: check prints invariant.violated lines and exits 1")
    func checkReportsViolations() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-check-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let lines = [
            HostEvent(t: 0, name: "run.start", fields: []),
            HostEvent(
                t: 1, name: "event.delivered",
                fields: [("bundle", "com.example.w"), ("eventId", 7), ("session", "s"), ("taskId", 1), ("pid", 10), ("attempt", 1)]),
            HostEvent(
                t: 2, name: "events.finished", fields: [("bundle", "com.example.w"), ("eventIds", [7]), ("pid", 10), ("identifier", "s")]),
            HostEvent(
                t: 3, name: "event.delivered",
                fields: [("bundle", "com.example.w"), ("eventId", 7), ("session", "s"), ("taskId", 1), ("pid", 11), ("attempt", 2)])
        ]
        try lines.map { $0.jsonLine + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
        let result = try await CommandLineTests.run(["check", log])
        #expect(result.status == 1)
        #expect(
            result.output.contains("\"event\":\"invariant.violated\"") && result.output.contains("noDeliveryAfterAcknowledgement"),
            "\(result.output)")
    }
}
