import Foundation
import Glibc
import SandglassHost
import SandglassTesting
import Testing

/// Rogue.app's extensions speak the protocol themselves and attack the host with what the
/// SDK never sends. Each attack is contained by a budget, at once, while the others run.
@Suite("Rogue messages")
struct RogueMessageTests {
    static let logFlood = "com.example.rogue.logflood"
    static let reloadFlood = "com.example.rogue.reloadflood"
    static let requestFlood = "com.example.rogue.requestflood"
    static let schemes = "com.example.rogue.schemes"
    static let unread = "com.example.rogue.unread"
    static let torrent = "com.example.rogue.torrent"
    static let hoard = "com.example.rogue.hoard"
    static let crowd = "com.example.rogue.crowd"
    static let denials = "com.example.rogue.denials"
    static let deluge = "com.example.rogue.deluge"

    @Test(
        "log and reload floods are throttled; a flood without end, a request flood, unread answers and an unread inline download are killed (resource); other schemes, non-token methods and tasks past a session's limit are refused"
    )
    func contained() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        let socket = try ListeningUnixSocket()
        defer { socket.close() }
        let socketURL = "http+unix://" + socket.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "/status"
        try await withHost({
            $0.extensionEnvironment["ROGUE_UNIX_URL"] = socketURL
            $0.extensionEnvironment["ROGUE_HTTP_URL"] = server.url("/json")
            $0.extensionEnvironment["ROGUE_DOWNLOAD_URL"] = server.url("/bytes/268435456?chunk=65536&interval=1")
            $0.budgetOverrides.idle = .seconds(120)
            // Long enough for each attack to play out within its first activations.
            $0.budgetOverrides.placeholder = .seconds(30)
            $0.budgetOverrides.launch = .seconds(10)
            $0.budgetOverrides.snapshot = .seconds(30)
        }) { host in
            try await host.install(Examples.app("Rogue.app"))
            await host.start()

            // An inline download it never reads: killed before the host holds more than the channel's limit.
            let unread = try await host.waitFor("killed", timeout: .seconds(120)) {
                $0.bundle == Self.unread && $0.string("reason") == "resource"
            }
            #expect(unread.string("detail")?.contains("did not read its IPC channel") == true)
            // A flood without end of frames the host drops or coalesces: killed — the host's loop
            // did not spend itself reading it (the other attacks are judged meanwhile).
            let torrent = try await host.waitFor("killed", timeout: .seconds(120)) {
                $0.bundle == Self.torrent && $0.string("reason") == "resource"
            }
            #expect(torrent.string("detail")?.contains("the host drops or coalesces") == true, "\(torrent)")
            // Frames of a megabyte without end: killed for the bytes, though each counts as one frame dropped.
            let deluge = try await host.waitFor("killed", timeout: .seconds(120)) {
                $0.bundle == Self.deluge && $0.string("reason") == "resource"
            }
            #expect(deluge.string("detail")?.contains("MiB of frames a second") == true, "\(deluge)")
            // Denied calls without end: each answered, told in events up to a rate, the rest in counts.
            let storm = try await host.waitFor("messages.throttled", timeout: .seconds(120)) {
                $0.bundle == Self.denials && $0.string("kind") == "denial"
            }
            #expect((storm.int("messages") ?? 0) > 0)
            let stormEvents = await host.events()
            let deniedEvents = stormEvents.filter { $0.kind == .sandboxDenied && $0.bundle == Self.denials }
            let untold = stormEvents.filter { $0.kind == .messagesThrottled && $0.bundle == Self.denials && $0.string("kind") == "denial" }
            let seconds = ((deniedEvents.map(\.t).max() ?? 0) - (deniedEvents.map(\.t).min() ?? 0)) / 1000
            #expect(
                !deniedEvents.isEmpty && Double(deniedEvents.count) <= 20 * (seconds + 2),
                "\(deniedEvents.count) sandbox.denied events in \(seconds) s")
            #expect(untold.reduce(0) { $0 + ($1.int("messages") ?? 0) } > 0)
            // Background tasks piled up, never resumed: refused once the session holds what one
            // frame can carry; every answer listing them fits in a frame.
            let hoarded = try await host.waitFor("task.refused", timeout: .seconds(120)) {
                $0.bundle == Self.hoard && $0.string("detail")?.contains("not completed") == true
            }
            #expect(hoarded.string("session") == "hoard")
            let badName = try await host.waitFor("session.invalidated", timeout: .seconds(120)) { $0.bundle == Self.hoard }
            #expect(badName.string("reason") == "badIdentifier", "\(badName)")
            let hoardCreated = await host.events().filter { $0.kind == .taskCreated && $0.bundle == Self.hoard }.count
            let limits = MessageLimits()
            #expect(hoardCreated > 0 && hoardCreated * (64 << 10) <= limits.sessionTaskBytes, "\(hoardCreated) tasks of 64 KiB kept")
            // The lists it asked for and never read: killed once the host held 8 MiB of them.
            let hoarder = try await host.waitFor("killed", timeout: .seconds(120)) {
                $0.bundle == Self.hoard && $0.string("reason") == "resource"
            }
            #expect(hoarder.string("detail")?.contains("did not read its IPC channel") == true, "\(hoarder)")
            // A hello declaring 20,000 kinds: refused, no instance made for it.
            let crowd = try await host.waitFor("killed", timeout: .seconds(120)) { $0.bundle == Self.crowd }
            #expect(
                crowd.string("reason") == "protocolViolation" && crowd.string("detail")?.contains("20000 widget kinds") == true, "\(crowd)"
            )
            #expect(!(await host.events()).contains { $0.kind == .widgetAdded && $0.bundle == Self.crowd })
            // A flood of requests: killed.
            let flood = try await host.waitFor("killed", timeout: .seconds(120)) {
                $0.bundle == Self.requestFlood && $0.string("reason") == "resource"
            }
            #expect(flood.string("detail")?.contains("sent requests to the host faster than") == true, "\(flood)")
            // Schemes other than http(s) and a method that is no token: refused, nothing reached.
            let refused = try await host.waitFor("task.refused", timeout: .seconds(120)) {
                $0.bundle == Self.schemes && $0.string("detail")?.contains("HTTP token") == true
            }
            #expect(refused.string("detail")?.contains("command") == true)
            // The floods are told in counts, not an event a frame.
            let logs = try await host.waitFor("messages.throttled", timeout: .seconds(120)) {
                $0.bundle == Self.logFlood && $0.string("kind") == "log"
            }
            #expect((logs.int("messages") ?? 0) > 0)
            // Told when due, about a second after the flood, though the process then sends
            // nothing more: not at the end of its placeholder (which it never answers: killed at
            // its 30 s budget).
            #expect(
                !(await host.events()).contains {
                    $0.bundle == Self.logFlood && ($0.kind == .killed || $0.kind == .activationEnd) && $0.t <= logs.t
                }, "the log flood's drops were told only once its activation ended")
            let reloads = try await host.waitFor("messages.throttled", timeout: .seconds(120)) {
                $0.bundle == Self.reloadFlood && $0.string("kind") == "reload"
            }
            #expect((reloads.int("messages") ?? 0) > 0)

            let events = await host.events()
            let schemeRefusals = events.filter { $0.kind == .taskRefused && $0.bundle == Self.schemes }
            #expect(
                Set(schemeRefusals.compactMap { $0.string("detail") }).count == 4,
                "http+unix, unix, file and the JSON method: \(schemeRefusals.map { $0.string("detail") ?? "" })")
            #expect(!events.contains { $0.kind == .taskStarted && $0.bundle == Self.schemes }, "nothing was fetched for it")
            #expect(socket.acceptedConnections() == 0, "no connection reached the host's Unix socket")
            #expect(!server.requests.contains { $0.uri == "/json" }, "the request with a JSON method never left the host")

            // No string of theirs entered the event log uncut: a 512 KiB reload kind, a 600 KB URL.
            for event in events where event.bundle?.hasPrefix("com.example.rogue.") == true {
                for case (let key, .string(let text)) in event.fields {
                    #expect(text.utf8.count <= limits.logMessageBytes + 64, "\(event.name).\(key): \(text.utf8.count) bytes")
                }
            }
            let long = events.first { $0.kind == .taskCreated && $0.bundle == Self.unread && ($0.string("url")?.count ?? 0) > 4000 }
            #expect(long != nil)
            // Its own framing headers are not sent, and its event says so.
            #expect(
                long?.fields.first { $0.0 == "headersNotSent" }?.1 == .array(["connection", "content-length"]),
                "\(String(describing: long))")
            #expect(events.contains { $0.kind == .reloadDenied && $0.bundle == Self.reloadFlood })
            // What the log flood got into the event log: within the budget as the log writes it
            // (a control character takes six bytes), each message cut; its diagnostics' texts too.
            let logEvents = events.filter {
                ($0.kind == .log || $0.kind == .mainThreadBlocked) && $0.bundle == Self.logFlood
            }
            let logged = logEvents.compactMap { $0.string("message") ?? $0.string("detail") }
            #expect(logged.allSatisfy { $0.utf8.count <= limits.logMessageBytes + 64 })
            #expect(events.contains { $0.kind == .mainThreadBlocked && $0.bundle == Self.logFlood })
            // The budget is a minute's, for each process: on a loaded machine one flood may span
            // more than one minute (or a relaunch), and gets a minute's budget in each.
            var allowed = 0
            for (_, ofProcess) in Dictionary(grouping: logEvents, by: { $0.pid ?? 0 }) {
                let times = ofProcess.map(\.t)
                let minutes = Int(((times.max() ?? 0) - (times.min() ?? 0)) / 60_000) + 1
                allowed += limits.logBytesPerMinute * minutes + 64 * ofProcess.count
                // Its 50,000 empty messages: each counts at least 64 bytes, so a minute takes 8,192.
                #expect(
                    ofProcess.count <= limits.logBytesPerMinute / MessageLimits.minimumLogBytes * minutes,
                    "\(ofProcess.count) log events from one process in \(minutes) minutes")
            }
            let written = logged.reduce(0) { $0 + JSONValue.string($1).serialized.utf8.count - 2 }
            #expect(written <= allowed, "\(written) bytes of text written for a budget of \(allowed)")
            let dropped = events.filter { $0.kind == .messagesThrottled && $0.bundle == Self.logFlood }.reduce(0) {
                $0 + ($1.int("messages") ?? 0)
            }
            #expect(dropped >= 1, "what the budget dropped was counted")
            // What the reload flood got into it: a handful of events, however many frames.
            let reloadEvents = events.filter { $0.name.hasPrefix("reload.") && $0.bundle == Self.reloadFlood }
            #expect(reloadEvents.count < 1000, "\(reloadEvents.count) reload events for 50,000 frames a launch")
            let coalesced = events.filter { $0.kind == .messagesThrottled && $0.bundle == Self.reloadFlood }.reduce(0) {
                $0 + ($1.int("messages") ?? 0)
            }
            #expect(coalesced > 1000)
        }
    }
}

/// A listening Unix-domain socket in the temporary directory, as the host's control socket is:
/// the test counts the connections that reached it.
final class ListeningUnixSocket: @unchecked Sendable {
    let path: String
    private let fd: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString.prefix(8)).sock").path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = unixSocketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// Connections waiting to be accepted now (each is accepted and closed).
    func acceptedConnections() -> Int {
        var count = 0
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return count }
            Glibc.close(client)
            count += 1
        }
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}
