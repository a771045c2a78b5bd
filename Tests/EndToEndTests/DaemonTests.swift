import Foundation
import SandglassDaemon
import SandglassHost
import SandglassReport
import SandglassTesting
import Testing

/// `sandglass serve` as a real daemon: the control socket (mode 0600) and `sandglass ctl`, the
/// Prometheus endpoint, and a graceful stop on SIGTERM that loses nothing.
@Suite("Daemon", .serialized)
struct DaemonTests {
    @Test("metrics: every name starts with sandglass_, counts follow the events")
    func metricsFromEvents() {
        let metrics = HostMetrics()
        for event in [
            HostEvent(t: 1, name: "spawned", fields: [("bundle", "com.example.a"), ("pid", 10)]),
            HostEvent(
                t: 2, name: "activation.end",
                fields: [("bundle", "com.example.a"), ("pid", 10), ("kind", "timeline"), ("outcome", "ok"), ("ms", 3.5)]),
            HostEvent(
                t: 3, name: "activation.end",
                fields: [("bundle", "com.example.a"), ("pid", 10), ("kind", "timeline"), ("outcome", "killed"), ("ms", 1000.2)]),
            HostEvent(t: 4, name: "killed", fields: [("bundle", "com.example.a"), ("pid", 10), ("reason", "timeBudget")]),
            HostEvent(t: 5, name: "download.started", fields: [("bundle", "com.example.a"), ("taskId", 1), ("attempt", 1)]),
            HostEvent(t: 6, name: "download.finished", fields: [("bundle", "com.example.a"), ("taskId", 1), ("bytes", 1024)]),
            HostEvent(t: 7, name: "event.delivered", fields: [("bundle", "com.example.a"), ("pid", 10)]),
            HostEvent(t: 8, name: "events.finished", fields: [("bundle", "com.example.a"), ("pid", 10), ("acknowledged", 2)]),
            HostEvent(t: 9, name: "something.new", fields: [])
        ] {
            metrics.record(event)
        }
        let text = metrics.exposition()
        #expect(text.contains("sandglass_spawns_total{bundle=\"com.example.a\"} 1"))
        #expect(text.contains("sandglass_activations_total{kind=\"timeline\",outcome=\"ok\"} 1"))
        #expect(text.contains("sandglass_kills_total{reason=\"timeBudget\"} 1"))
        #expect(text.contains("sandglass_live_extensions 1"))
        #expect(text.contains("sandglass_downloads_started_total 1"))
        #expect(text.contains("sandglass_downloads_total{result=\"finished\"} 1"))
        #expect(text.contains("sandglass_events_delivered_total 1"))
        #expect(text.contains("sandglass_events_acknowledged_total 2"))
        #expect(text.contains("sandglass_host_events_total{event=\"something.new\"} 1"), "new kinds of events are counted too")
        #expect(text.contains("sandglass_activation_duration_seconds_bucket{kind=\"timeline\",le=\"0.005\"} 1"))
        #expect(text.contains("sandglass_activation_duration_seconds_count{kind=\"timeline\"} 2"))
        let names = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!names.isEmpty && names.allSatisfy { $0.hasPrefix("sandglass_") })
    }

    @Test("serve: ctl status, reload and kill work; /metrics answers; SIGTERM stops it gracefully with nothing lost")
    func daemon() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path, log = dir.appendingPathComponent("serve.jsonl").path
        let data = dir.appendingPathComponent("data").path
        let daemon = try Subprocess(
            CommandLineTests.sandglass,
            [
                "serve", try Examples.app("Leaderboard.app"), "--control", socket, "--metrics", "127.0.0.1:0",
                "--log", log, "--data-directory", data, "--budget", "idle=120s"
            ])
        defer { daemon.stop() }
        let metricsLine = try await daemon.waitForLine { $0.hasPrefix("metrics on http://127.0.0.1:") }
        let port = try #require(Int(metricsLine.split(separator: ":").last?.split(separator: "/").first ?? ""))
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }

        var info = stat()
        #expect(lstat(socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "only the owner may connect")

        let client = ControlClient(path: socket)
        let bundle = "com.example.leaderboard.widget"
        var firstPid: Int32?
        try await eventually("the widget's extension is running and has a timeline") {
            let status = try client.send(ControlRequest(command: "status")).status
            firstPid = status?.extensions.first { $0.bundle == bundle }?.pid
            return firstPid != nil && (status?.timelines ?? 0) >= 1
        }

        // ctl through the command line, as a person types it.
        let statusCommand = try await CommandLineTests.run(["ctl", "status", "--control", socket])
        #expect(statusCommand.status == 0, "\(statusCommand.error)")
        #expect(statusCommand.output.contains("\(bundle): running as pid \(firstPid!)"))

        let killed = try await CommandLineTests.run(["ctl", "kill", bundle, "--reason", "chaos", "--control", socket])
        #expect(killed.status == 0, "\(killed.error)")
        #expect(killed.output.contains("killed \(bundle) (pid \(firstPid!))"))
        try await eventually("the kill is counted in the metrics") {
            (try? Self.get(port: port, path: "/metrics"))?.contains("sandglass_kills_total{reason=\"chaos\"} 1") == true
        }
        let metrics = try Self.get(port: port, path: "/metrics")
        #expect(metrics.contains("sandglass_spawns_total{bundle=\"\(bundle)\"} 1"))
        #expect(metrics.contains("sandglass_activation_duration_seconds_bucket"))
        #expect(try Self.get(port: port, path: "/nothing").hasPrefix("HTTP/1.1 404"))
        // A page in a browser whose name was rebound to 127.0.0.1 asks with its own name: refused.
        for name in ["evil.example", "127.evil.example:\(port)"] {
            #expect(try Self.get(port: port, path: "/metrics", host: name).hasPrefix("HTTP/1.1 403"), "\(name)")
        }
        #expect(try Self.get(port: port, path: "/metrics", host: "localhost:\(port)").hasPrefix("HTTP/1.1 200"))

        // The reload relaunches the extension: a new process, a new timeline.
        let reload = try await CommandLineTests.run(["ctl", "reload", "--control", socket])
        #expect(reload.status == 0, "\(reload.error)")
        #expect(reload.output.contains("asked 2 widgets"))
        var secondPid: Int32?
        try await eventually("the reload ran in a new process") {
            secondPid = try client.send(ControlRequest(command: "status")).status?.extensions.first { $0.bundle == bundle }?.pid
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return secondPid != nil && secondPid != firstPid && text.contains("\"reason\":\"reloadAllTimelines\",\"origin\":\"app\"")
        }

        let visibility = try await CommandLineTests.run(["ctl", "visibility", "seldom", "--control", socket])
        #expect(visibility.status == 0, "\(visibility.error)")
        #expect(visibility.output.contains("every widget now seen seldom"))
        let perKind = try await CommandLineTests.run(["ctl", "visibility", "never", "--kind", "NextMatch", "--control", socket])
        #expect(perKind.status == 0, "\(perKind.error)")
        let badVisibility = try await CommandLineTests.run(["ctl", "visibility", "sometimes", "--control", socket])
        #expect(badVisibility.status == 1 && badVisibility.error.contains("always, never, often, seldom"))
        let moved = try await CommandLineTests.run(["ctl", "location", "48.8566,2.3522", "--control", socket])
        #expect(moved.status == 0, "\(moved.error)")
        let denied = try await CommandLineTests.run(["ctl", "location", "denied", "--control", socket])
        #expect(denied.status == 0 && denied.output.contains("authorization is now denied"), "\(denied.error)")
        let badLocation = try await CommandLineTests.run(["ctl", "location", "north", "--control", socket])
        #expect(badLocation.status == 1 && badLocation.error.contains("LAT,LON"))
        try await eventually("the changes are in the log") {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.contains("\"visibility\":\"seldom\"") && text.contains("\"event\":\"visibility.changed\"")
                && text.contains("\"authorization\":\"denied\"")
                && text.components(separatedBy: "\"event\":\"scenario.change\"").count - 1 == 3
        }
        let realClock = try await CommandLineTests.run(["ctl", "clock", "1h", "--control", socket])
        #expect(realClock.status == 1 && realClock.error.contains("runs on the real clock"))
        let unknown = try await CommandLineTests.run(["ctl", "kill", "com.example.nothing", "--control", socket])
        #expect(unknown.status == 1 && unknown.error.contains("no extension com.example.nothing is installed"))

        // SIGTERM: graceful. The live extension is killed with hostShutdown and reaped, the log ends with run.end.
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit(timeout: 60) == 0, "\(daemon.standardError)")
        let events = try RunLog.read([log])[0].events
        #expect(events.last?.name == "run.end")
        #expect(events.contains { $0.kind == .killed && $0.pid == secondPid && $0.string("reason") == "hostShutdown" })
        #expect(events.contains { $0.kind == .exited && $0.pid == secondPid })
        #expect(!processExists(secondPid!))
        #expect(daemon.standardOutput.contains("stopped:"))
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed")
        #expect(FileManager.default.fileExists(atPath: data + "/journal.sqlite"), "the journal stays for the next start")
        #expect(throws: (any Error).self) { try Self.get(port: port, path: "/metrics") }
        #expect(!ControlClient.acceptsConnections(socket))
    }

    @Test(
        "serve as an ordinary user: its extensions run as that user too, yet one cannot reach the control socket — no socket of its own, nothing done",
        .enabled(if: getuid() == 0 && DeployTests.setpriv != nil, "needs root and setpriv (util-linux) to run serve as another user"))
    func controlSocketOutOfReach() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The daemon's user (nobody) owns the directory; the bundles are copies it can read.
        for app in ["Leaderboard.app", "RogueControl.app"] {
            try FileManager.default.copyItem(atPath: try Examples.app(app), toPath: dir.appendingPathComponent(app).path)
        }
        let nobody: UInt32 = 65534
        #expect(chown(dir.path, nobody, nobody) == 0)
        let socket = dir.appendingPathComponent("ctl.sock").path, log = dir.appendingPathComponent("serve.jsonl").path
        let victim = "com.example.leaderboard.widget"
        let daemon = try Subprocess(
            DeployTests.setpriv!,
            [
                "--reuid", "\(nobody)", "--regid", "\(nobody)", "--clear-groups", CommandLineTests.sandglass, "serve",
                dir.appendingPathComponent("Leaderboard.app").path, dir.appendingPathComponent("RogueControl.app").path,
                "--control", socket, "--log", log, "--data-directory", dir.appendingPathComponent("data").path,
                "--env", "ROGUE_CONTROL_PATH=\(socket)", "--env", "ROGUE_VICTIM=\(victim)"
            ])
        defer { daemon.stop() }
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }
        var answer: HostEvent?
        try await eventually("the rogue extension has had its answer") {
            answer = try? RunLog.read([log])[0].events.first {
                $0.kind == .log && $0.bundle == "com.example.roguecontrol.control"
                    && ($0.string("message") ?? "").hasPrefix("control answered: ")
            }
            return answer != nil
        }
        // The sandbox gives it no socket to connect with (the daemon would refuse it too, as one
        // of its children: ControlPeerTests).
        let said = answer?.string("message") ?? ""
        #expect(said == "control answered: socket failed, errno \(EACCES)", "\(said)")
        // The operator (root here) is still served.
        let status = try await CommandLineTests.run(["ctl", "status", "--control", socket])
        #expect(status.status == 0, "\(status.error)")
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit(timeout: 60) == 0, "\(daemon.standardError)")
        let events = try RunLog.read([log])[0].events
        #expect(!events.contains { $0.kind == .killed && $0.string("reason") == "chaos" }, "an extension had another killed")
        #expect(!events.contains { $0.kind == .containerOverQuota }, "a container measured over its quota as another user")
        #expect(!events.contains { $0.kind == .controlRefused }, "an extension reached the control socket")
    }

    @Test("the daemon never fetches its own metrics endpoint for an extension: -1004, naming it")
    func metricsNotFetchedForExtensions() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path, log = dir.appendingPathComponent("serve.jsonl").path
        let port = try Self.freePort()
        let daemon = try Subprocess(
            CommandLineTests.sandglass,
            [
                "serve", try Examples.app("InlineFetch.app"), "--control", socket, "--metrics", "127.0.0.1:\(port)", "--log", log,
                "--data-directory", dir.appendingPathComponent("data").path,
                "--env", "SANDGLASS_FIXTURE_URL=http://127.0.0.1:\(port)/metrics"
            ])
        defer { daemon.stop() }
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }
        var ended: HostEvent?
        try await eventually("the extension's fetch has ended") {
            ended = try? RunLog.read([log])[0].events.first { $0.kind == .taskFailed || $0.kind == .taskFinished }
            return ended != nil
        }
        #expect(ended?.kind == .taskFailed, "the extension read the daemon's metrics: \(String(describing: ended))")
        #expect(ended?.int("code") == -1004)
        #expect(ended?.string("error")?.contains("the daemon's own metrics endpoint") == true, "\(ended?.string("error") ?? "")")
        // The operator still reads them.
        #expect(try Self.get(port: port, path: "/metrics").contains("sandglass_"))
    }

    /// A new directory for one daemon's socket, log and data; the caller removes it.
    static func scratchDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sgd-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A port free on 127.0.0.1 now (bound to port 0, then closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound, "no free port: errno \(errno)")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("SIGTERM during a background download loses nothing: the next daemon on the data directory resumes it and delivers its events")
    func nothingLost() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try await FixtureServer.start()
        do {
            try await resumeAfterStop(dir: dir, server: server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func resumeAfterStop(dir: URL, server: FixtureServer) async throws {
        let data = dir.appendingPathComponent("data").path, socket = dir.appendingPathComponent("ctl.sock").path
        func serve(_ log: String) throws -> Subprocess {
            try Subprocess(
                CommandLineTests.sandglass,
                [
                    "serve", try Examples.app("Downloader.app"), "--control", socket, "--data-directory", data, "--log", log,
                    "--env", "SANDGLASS_FIXTURE_URL=\(server.url("/bytes/262144?chunk=16384&interval=200"))"
                ])
        }
        let firstLog = dir.appendingPathComponent("first.jsonl").path
        let first = try serve(firstLog)
        defer { first.stop() }
        try await eventually("the download has started") {
            ((try? String(contentsOfFile: firstLog, encoding: .utf8)) ?? "").contains("\"event\":\"download.started\"")
        }
        first.signal(SIGTERM)
        #expect(try await first.waitForExit() == 0, "\(first.standardError)")
        let stopped = try RunLog.read([firstLog])[0].events
        #expect(stopped.last?.name == "run.end")
        #expect(!stopped.contains { $0.kind == .eventsFinished }, "stopped before the download's events were handed over")

        let secondLog = dir.appendingPathComponent("second.jsonl").path
        let second = try serve(secondLog)
        defer { second.stop() }
        try await eventually(timeout: 60, "the resumed download's events are acknowledged") {
            ((try? String(contentsOfFile: secondLog, encoding: .utf8)) ?? "").contains("\"event\":\"events.finished\"")
        }
        second.signal(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        let resumed = try RunLog.read([secondLog])[0].events
        #expect(resumed.contains { $0.kind == .taskRecovered }, "the journal had the task")
        #expect(
            resumed.contains {
                $0.kind == .downloadFinished && $0.int("taskId") == stopped.first { $0.kind == .downloadStarted }?.int("taskId")
            })
    }

    @Test("ctl clock advances a virtual-clock daemon: the widgets' reloads of two hours happen at once")
    func virtualClock() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path, log = dir.appendingPathComponent("serve.jsonl").path
        let daemon = try Subprocess(
            CommandLineTests.sandglass,
            [
                "serve", try Examples.app("Leaderboard.app"), "--clock", "virtual",
                "--control", socket, "--log", log,
                "--data-directory", dir.appendingPathComponent("data").path
            ])
        defer { daemon.stop() }
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }
        let client = ControlClient(path: socket)
        try await eventually("the first timelines") { (try client.send(ControlRequest(command: "status")).status?.timelines ?? 0) >= 2 }
        let advanced = try await CommandLineTests.run(["ctl", "clock", "2h", "--control", socket])
        #expect(advanced.status == 0, "\(advanced.error)")
        #expect(advanced.output.contains("advanced the virtual clock by 2h"))
        let status = try #require(try client.send(ControlRequest(command: "status")).status)
        #expect(status.clock == "virtual")
        #expect(status.timelines > 2, "Leaderboard's timelines end within 2 h: reloads happened")
        #expect(status.runTimeMs >= 3_600_000)
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
    }

    @Test("ctl clock past the 100 years the virtual clock reaches says how far it went")
    func clockAsFarAsItGoes() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let daemon = try Subprocess(
            CommandLineTests.sandglass,
            ["serve", "--clock", "virtual", "--control", socket, "--data-directory", dir.appendingPathComponent("data").path])
        defer { daemon.stop() }
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }
        let first = try await CommandLineTests.run(["ctl", "clock", "36500d", "--control", socket])
        #expect(first.status == 0, "\(first.error)")
        let second = try await CommandLineTests.run(["ctl", "clock", "36500d", "--control", socket])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("as far as it goes"), "\(second.output)")
        #expect(!second.output.contains("by 36500d"), "\(second.output)")
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
    }

    @Test("a second daemon on the same socket is refused; a stale socket file is replaced")
    func socketInUse() async throws {
        let dir = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        // Data directories inside `dir`: a daemon stopped with SIGKILL cannot remove its own.
        let first = try Subprocess(
            CommandLineTests.sandglass, ["serve", "--control", socket, "--data-directory", dir.appendingPathComponent("data1").path])
        defer { first.stop() }
        _ = try await first.waitForLine { $0.hasPrefix("serving ") }
        let second = try await CommandLineTests.run(["serve", "--control", socket])
        #expect(second.status == 2)
        #expect(second.error.contains("already listening on \(socket)"))
        // SIGKILL leaves the socket file behind; the next daemon replaces it.
        first.stop()
        #expect(FileManager.default.fileExists(atPath: socket))
        let third = try Subprocess(
            CommandLineTests.sandglass, ["serve", "--control", socket, "--data-directory", dir.appendingPathComponent("data3").path])
        defer { third.stop() }
        _ = try await third.waitForLine { $0.hasPrefix("serving ") }
        #expect(try ControlClient(path: socket).send(ControlRequest(command: "status")).ok)
        third.signal(SIGTERM)
        #expect(try await third.waitForExit() == 0)
    }

    /// A plain HTTP/1.1 GET on 127.0.0.1: the whole response, status line first.
    static func get(port: Int, path: String, host: String = "127.0.0.1") throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Subprocess.Failure("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Subprocess.Failure("cannot connect to 127.0.0.1:\(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { throw Subprocess.Failure("send failed") }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        guard !response.isEmpty else { throw Subprocess.Failure("no response from 127.0.0.1:\(port)") }
        return String(decoding: response, as: UTF8.self)
    }
}
