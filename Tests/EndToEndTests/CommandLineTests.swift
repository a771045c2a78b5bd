import Foundation
import SandglassHost
import SandglassReport
import SandglassTesting
import Testing

/// The command-line contract: exit statuses, the event log file, readable errors.
@Suite("Command line")
struct CommandLineTests {
    static var sandglass: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = dir.pathExtension == "xctest" ? dir.deletingLastPathComponent() : dir
        return candidate.appendingPathComponent("sandglass").path
    }

    struct Result: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `sandglass arguments` to its end on a thread of its own, leaving the cooperative pool
    /// (two threads on a 2-core machine) to the async tests running beside it.
    static func run(_ arguments: [String], niceness: Int? = nil, environment: [String: String] = [:]) async throws -> Result {
        try await offThePool { try run(blocking: arguments, niceness: niceness, environment: environment) }
    }

    /// Runs `sandglass arguments` to its end, blocking this thread; with `niceness`, under
    /// nice(1), so that a heavy command leaves the CPU to the suites running beside it; under
    /// `wrapper` (a command that runs the rest, such as setpriv) when given; `environment` adds
    /// to this process's.
    static func run(
        blocking arguments: [String], niceness: Int? = nil, environment: [String: String] = [:],
        under wrapper: [String] = []
    ) throws -> Result {
        let command = (niceness.map { ["/usr/bin/nice", "-n", String($0)] } ?? []) + wrapper + [sandglass] + arguments
        let outcome = try ChildProcess.run(
            command[0], Array(command.dropFirst()), environment: testEnvironment.merging(environment) { $1 })
        return Result(
            status: outcome.termination.status, output: String(decoding: outcome.output, as: UTF8.self),
            error: String(decoding: outcome.error, as: UTF8.self))
    }

    @Test("run writes the event log with run.start first and exits 0")
    func runWritesLog() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        // Room for a launch on a loaded machine (the whole suite runs in parallel): the default
        // launch budget is 1 s, and a run of 1 s could end before a slow first hello.
        let result = try await Self.run([
            "run", try Examples.app("Leaderboard.app"), "--duration", "4s", "--budget", "launch=3s", "--log", log, "--quiet"
        ])
        #expect(result.status == 0, "\(result.error)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(first?["event"] as? String == "run.start")
        #expect(first?["clock"] as? String == "real")
        #expect(first?["epoch"] is Double)
        let names = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }.compactMap {
            $0["event"] as? String
        }
        for required in ["installed", "spawned", "hello", "activation.start", "activation.end", "timeline", "exited", "run.end"] {
            #expect(names.contains(required), "\(required) is in the log")
        }
        #expect(result.output.contains("summary:"))
    }

    @Test("a malformed bundle is bad input: exit 2, the file and key named")
    func malformedBundle() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString)/Bad.app")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let appex = dir.appendingPathComponent("PlugIns/BadWidget.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        try plist(["CFBundleIdentifier": "com.example.bad"]).write(to: dir.appendingPathComponent("Info.plist"))
        try plist([
            "CFBundleIdentifier": "com.example.bad.widget", "CFBundleExecutable": "BadWidget",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.share-services"]
        ])
        .write(to: appex.appendingPathComponent("Info.plist"))
        _ = FileManager.default.createFile(
            atPath: appex.appendingPathComponent("BadWidget").path, contents: Data("#!/bin/true\n".utf8),
            attributes: [.posixPermissions: 0o755])
        // Its own TMPDIR, to see that the temporary data directory goes with the failed run.
        let scratch = dir.deletingLastPathComponent().appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let result = try await Self.run(["run", dir.path, "--duration", "1s", "--quiet"], environment: ["TMPDIR": scratch.path])
        #expect(result.status == 2)
        #expect(result.error.contains("Bad.app/PlugIns/BadWidget.appex/Info.plist"))
        #expect(result.error.contains("NSExtension.NSExtensionPointIdentifier"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "the temporary data directory is removed")
    }

    @Test("--configuration and --app-group reach the widgets; malformed ones are bad input naming the option")
    func configurationAndAppGroup() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-cli-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/seed/Library/Preferences", withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: ["relayData": "from the seed"], format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: scratch + "/seed/Library/Preferences/group.com.example.relay.plist"))
        try #"{"runner": "cy", "leg": 6}"#.write(toFile: scratch + "/leg.json", atomically: false, encoding: .utf8)
        let relay = try Examples.app("Relay.app")
        let result = try await Self.run([
            // An hour on the virtual clock: the first timelines come before any time passes, however
            // loaded the machine (2 s of real time did not always hold them).
            "run", relay, "--duration", "1h", "--clock", "virtual", "--quiet", "--log", scratch + "/run.jsonl",
            "--configuration", "Leg=@\(scratch)/leg.json", "--app-group", "group.com.example.relay=\(scratch)/seed",
            "--log-private"
        ])
        #expect(result.status == 0, "\(result.error)")
        let log = try String(contentsOfFile: scratch + "/run.jsonl", encoding: .utf8)
        #expect(log.contains(#""runner":"cy""#) && log.contains(#""leg":6"#), "the Leg widget's configuration")
        #expect(log.contains(#""relay":"from the seed""#), "the seeded defaults")
        #expect(log.contains(#""message":"roster: none""#), "private values shown with --log-private")
        for (arguments, named) in [
            (["--configuration", "Leg=[1]"], "--configuration Leg=[1]"),
            (["--configuration", "Leg"], "--configuration Leg"),
            (["--app-group", "group.x=/nonexistent"], "--app-group group.x=/nonexistent")
        ] {
            let bad = try await Self.run(["run", relay, "--duration", "1s", "--quiet"] + arguments)
            #expect(bad.status == 2)
            #expect(bad.error.contains(named), "\(bad.error)")
        }
    }

    @Test(
        "--deny-connect keeps the host from connecting there for an extension: its download fails -1004 naming the range; a bad range is bad input"
    )
    func denyConnect() async throws {
        let server = try await FixtureServer.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-cli-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let downloader = try Examples.app("Downloader.app")
        let result = try await Self.run([
            "run", downloader, "--duration", "1h", "--clock", "virtual", "--quiet", "--log", scratch + "/run.jsonl",
            "--env", "SANDGLASS_FIXTURE_URL=\(server.url("/bytes/4096"))", "--deny-connect", "loopback"
        ])
        await server.stop()
        #expect(result.status == 0, "\(result.error)")
        let log = try String(contentsOfFile: scratch + "/run.jsonl", encoding: .utf8)
        let failed = log.split(separator: "\n").filter { $0.contains(#""event":"download.failed""#) }
        #expect(!failed.isEmpty, "no download failed")
        for line in failed {
            #expect(line.contains(#""code":-1004"#) && line.contains("127.0.0.1 is in 127.0.0.0/8 (loopback)"), "\(line)")
        }
        #expect(!log.contains(#""event":"download.finished""#))
        #expect(server.requests.isEmpty, "the host connected to a denied address")
        for range in ["10.0.0.0/33", "intranet"] {
            let bad = try await Self.run(["run", downloader, "--duration", "1s", "--quiet", "--deny-connect", range])
            #expect(bad.status == 2)
            #expect(bad.error.contains("--deny-connect \"\(range)\""), "\(bad.error)")
        }
    }

    @Test("an extension's text reaches the operator's terminal without its control characters: escapes shown, one line per event")
    func traceEscapesControlCharacters() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-\(UUID().uuidString.prefix(8)).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try await Self.run([
            "run", try Examples.app("RogueControl.app"), "--duration", "2s", "--log", log, "--env", "ROGUE_IMPOSTOR=1"
        ])
        #expect(result.status == 0, "\(result.error)")
        // The log file too, for `cat` and `tail -f`: escaped in its JSON, read back whole.
        let raw = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!raw.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        // The impostor's hello named a bundle of 512 KiB of control characters: refused, cut.
        let lines = raw.split(separator: "\n")
        #expect(lines.contains { $0.contains("com.example.roguecontrol.impostor") && $0.contains("protocolViolation") })
        #expect(lines.allSatisfy { $0.utf8.count <= 16 << 10 }, "a line of \(lines.map(\.utf8.count).max() ?? 0) bytes")
        let forged = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{1B}[H\n     9.999s  all invariants held\u{202E}txt.exe"
        #expect(try RunLog.read([log])[0].events.contains { $0.kind == .log && $0.string("message") == forged })
        let trace = result.output
        #expect(!trace.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(!trace.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(!trace.split(separator: "\n").contains { $0.hasPrefix("     9.999s") }, "a forged line of the trace")
        // The logged message is one event, one line; the printed one is two lines of output, two events.
        let logged = trace.split(separator: "\n").filter { $0.contains("logged (info): \\u{1B}]52;c;cHduZWQ=") }
        #expect(!logged.isEmpty)
        for line in logged {
            #expect(
                line.hasSuffix("\\u{1B}]52;c;cHduZWQ=\\u{7}\\u{1B}[2J\\u{1B}[H\\n     9.999s  all invariants held\\u{202E}txt.exe"),
                "\(line)")
        }
        #expect(trace.contains("printed: \\u{1B}]52;c;cHduZWQ=\\u{7}\\u{1B}[2J\\u{1B}[H\n"))
    }

    @Test(
        "run removes its temporary data directory whatever an extension wrote in its container: directories nested past PATH_MAX, a FIFO, a link to /etc"
    )
    func temporaryDataDirectoryGoes() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nester-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let log = scratch + ".jsonl"
        defer {
            DirectoryTree.remove(scratch)
            try? FileManager.default.removeItem(atPath: log)
        }
        let result = try await Self.run(
            [
                "run", try Examples.app("RogueControl.app"), "--duration", "4s", "--budget", "launch=10s", "--log", log, "--quiet",
                "--env", "ROGUE_NESTER=1"
            ],
            environment: ["TMPDIR": scratch])
        #expect(result.status == 0, "\(result.error)")
        let events = try RunLog.read([log])[0].events
        #expect(events.contains { $0.kind == .log && $0.string("message") == "nested" }, "the nester did not nest")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "left in the temporary directory: \(left); \(result.error)")
        #expect(FileManager.default.fileExists(atPath: "/etc/passwd"))
    }

    @Test("a bad option is bad input: exit 2 with the parser's message")
    func badOption() async throws {
        let result = try await Self.run(["run", "X.app", "--duration", "soon"])
        #expect(result.status == 2)
        #expect(result.error.contains("duration"))
    }

    @Test("huge and negative durations are bad input (exit 2, the option named), never a trap of the runtime")
    func hugeDurations() async throws {
        for value in ["99999999999999999d", "1e308s", "-5s"] {
            let result = try await Self.run(["run", "X.app", "--duration", value])
            #expect(result.status == 2, "\(value): status \(result.status)")
            #expect(result.error.contains("'\(value)' is invalid for '--duration"), "\(value): \(result.error)")
        }
        let stress = try await Self.run(["stress", "X.app", "--duration", "1e308s"])
        #expect(stress.status == 2, "stress: \(stress.error)")
    }

    @Test("explain reads a run's log: the blocking reason now, the budget, the decisions; an unknown widget is bad input")
    func explainFromLog() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await Self.run([
            "run", try Examples.app("Fleet.app"), "--duration", "1d", "--clock", "virtual",
            "--budget", "idle=2d", "--log", log, "--quiet"
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("invariant violations: 0"))

        let all = try await Self.run(["explain", "--log", log])
        #expect(all.status == 0, "\(all.error)")
        #expect(all.output.split(separator: "\n").count == 50, "one line per widget")

        let greedy = try await Self.run([
            "explain", "--log", log, "--widget", "com.example.fleet.alpha/Greedy/systemSmall", "--at", "12h", "--last", "3"
        ])
        #expect(greedy.status == 0, "\(greedy.error)")
        #expect(greedy.output.contains("blocked: reload budget exhausted (60 of 60 reloads used in the last 24 h) until"))
        #expect(greedy.output.contains("in the last 24 h: 60 charged"))
        #expect(greedy.output.contains("decisions (last 3 of"))

        let hourly = try await Self.run(["explain", "--log", log, "--widget", "Hourly"])
        #expect(
            hourly.output.components(separatedBy: "Hourly · com.example.fleet.").count - 1 == 5,
            "a kind names the widgets of every extension")
        #expect(hourly.output.contains("reloads by its timeline's policy"))

        let unknown = try await Self.run(["explain", "--log", log, "--widget", "Nope"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no widget Nope"))
        let missing = try await Self.run(["explain", "--log", log + ".missing"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read the event log"))
    }

    private func plist(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    }
}
