import Foundation
import Glibc
import SandglassIPC
import Testing

@testable import SandglassHost

/// The budgets and checks that stand between an extension's (or a file's) input and the host.
@Suite("Containment of input")
struct ContainmentInputTests {
    @Test("log bytes: cut at 4 KiB a message, an activation's allowance and a minute's, the rest dropped and told once a second")
    func logBudget() {
        var limits = MessageLimits()
        limits.logBytesPerActivation = 10_000
        limits.logBytesPerMinute = 20_000
        var budget = MessageBudget(limits: limits, now: 0)
        // A message counts as what the log writes of it: cut to 4 KiB, escaped — a control
        // character takes six bytes (the supervisor measures it, with JSONValue.writtenBytes).
        #expect(JSONValue.writtenBytes(MessageBudget.cut(String(repeating: "x", count: 512 << 10), to: 4096)) <= 4096 + 64)
        #expect(JSONValue.writtenBytes("\u{1}\u{7F}\u{202E}\"é\n") == 6 + 6 + 6 + 2 + 2 + 2)
        #expect(JSONValue.writtenBytes("\u{1}é\"") == JSONValue.string("\u{1}é\"").serialized.utf8.count - 2)
        #expect(budget.admit(.log, bytes: 4096, now: 1) == .accept)
        #expect(budget.admit(.log, bytes: 4096, now: 2) == .accept)
        #expect(budget.admit(.log, bytes: 4096, now: 3) == .drop, "over the activation's 10,000 bytes")
        budget.activationStarted()
        #expect(budget.admit(.log, bytes: 4096, now: 4) == .accept)
        #expect(budget.admit(.log, bytes: 4096, now: 5) == .accept)
        budget.activationStarted()
        #expect(budget.admit(.log, bytes: 4096, now: 6) == .drop, "over the minute's 20,000 bytes")
        #expect(budget.takeDropped(now: 8).isEmpty, "told at most once a second")
        let told = budget.takeDropped(now: 1_000_000_000)
        #expect(told.map(\.kind) == [.log] && told.first?.messages == 2 && told.first?.bytes == 8192)
        #expect(budget.takeDropped(now: 3_000_000_000, force: true).isEmpty, "told once")
        // A minute later the allowance is whole again.
        budget.activationStarted()
        #expect(budget.admit(.log, bytes: 4096, now: 61_000_000_000) == .accept)
    }

    @Test("reloads and diagnostics over their rate are dropped and counted; other requests over theirs kill")
    func rates() {
        var limits = MessageLimits()
        limits.reloadsPerSecond = 3
        limits.requestBurst = 5
        limits.requestsPerSecond = 2
        var budget = MessageBudget(limits: limits, now: 0)
        let reloads = (0..<10).map { budget.admit(.reload, now: UInt64($0)) }
        #expect(reloads.filter { $0 == .accept }.count == 3)
        #expect(budget.takeDropped(now: 0, force: true).first?.messages == 7)
        #expect(budget.admit(.reload, now: 1_000_000_001) == .accept, "a new second")
        budget.activationStarted()
        #expect((0..<3).allSatisfy { _ in budget.admit(.reload, now: 1_000_000_002) == .accept }, "a new activation")
        // A burst of 5 passes; then 2 a second.
        let burst = (0..<5).map { budget.admit(.other, now: 1_000_000_002 + UInt64($0)) }
        #expect(burst.allSatisfy { $0 == .accept })
        #expect(budget.admit(.other, now: 1_500_000_010) == .accept, "half a second refilled one")
        guard case .kill(let why) = budget.admit(.other, now: 1_500_000_020) else {
            Issue.record("a sustained flood is not a kill"); return
        }
        #expect(why.contains("faster than 2 a second"))
        #expect(MessageBudget.kind(of: .log(LogRecord(level: .info, message: "x"))) == .log)
        #expect(MessageBudget.kind(of: .error(ErrorReport(code: .other, message: "x"))) == .log)
        #expect(MessageBudget.kind(of: .error(ErrorReport(requestID: RequestID(1), code: .other, message: "x"))) == .other)
        #expect(MessageBudget.kind(of: .reloadAllTimelines) == .reload)
        // A pong answers the host's own ping: never counted, even past a flood's kill.
        #expect(MessageBudget.kind(of: .pong(7)) == .answer)
        #expect((0..<10).allSatisfy { budget.admit(.answer, now: 1_500_000_030 + UInt64($0)) == .accept })
    }

    @Test("frames dropped or coalesced past their own burst and rate kill: a flood of them is no cheaper to the loop")
    func drops() {
        var limits = MessageLimits()
        limits.reloadsPerSecond = 1
        limits.droppedBurst = 4
        limits.droppedPerSecond = 2
        var budget = MessageBudget(limits: limits, now: 0)
        #expect(budget.admit(.reload, now: 0) == .accept)
        let coalesced = (1...4).map { budget.admit(.reload, now: UInt64($0)) }
        #expect(coalesced.allSatisfy { $0 == .drop }, "a burst of 4 is counted, not killed")
        #expect(budget.admit(.log, bytes: 4096, now: 500_000_010) == .accept, "half a second refilled one drop, logs untouched")
        #expect(budget.admit(.diagnostic, now: 500_000_011) == .accept)
        #expect(budget.admit(.reload, now: 500_000_012) == .drop, "the drop refilled in half a second")
        guard case .kill(let why) = budget.admit(.reload, now: 500_000_013) else {
            Issue.record("a sustained flood of dropped frames is not a kill"); return
        }
        #expect(why.contains("faster than 2 a second after a burst of 4"))
    }

    @Test("denied calls past their rate are counted, not told one by one")
    func denials() {
        var limits = MessageLimits()
        limits.deniedCallsPerSecond = 2
        var budget = MessageBudget(limits: limits, now: 0)
        let verdicts = (0..<5).map { budget.admit(.denial, now: UInt64($0)) }
        #expect(verdicts == [.accept, .accept, .drop, .drop, .drop])
        let told = budget.takeDropped(now: 0, force: true)
        #expect(told.map(\.kind) == [.denial] && told.first?.messages == 3)
        #expect(budget.admit(.denial, now: 1_000_000_005) == .accept, "a new second")
    }

    @Test("a hello is refused past its limits: kinds, families, names, texts, session identifiers")
    func helloLimits() {
        func hello(_ widgets: [WidgetDescription], sessions: [String] = []) -> Hello {
            Hello(bundleIdentifier: "b", role: .widgetKit, widgets: widgets, sessionIdentifiers: sessions)
        }
        let one = WidgetDescription(kind: "Scores", supportedFamilies: ["systemSmall", "systemMedium"])
        #expect(HelloLimits.refusal(of: hello(Array(repeating: one, count: 128), sessions: ["s"])) == nil)
        #expect(HelloLimits.refusal(of: hello(Array(repeating: one, count: 129)))?.contains("129 widget kinds") == true)
        let long = String(repeating: "k", count: 257)
        #expect(HelloLimits.refusal(of: hello([WidgetDescription(kind: long, supportedFamilies: [])]))?.contains("257 bytes") == true)
        #expect(HelloLimits.refusal(of: hello([WidgetDescription(kind: "k", supportedFamilies: [long])])) != nil)
        #expect(HelloLimits.refusal(of: hello([WidgetDescription(kind: "k", supportedFamilies: Array(repeating: "f", count: 17))])) != nil)
        #expect(
            HelloLimits.refusal(
                of: hello([WidgetDescription(kind: "k", summary: String(repeating: "x", count: 4097), supportedFamilies: [])]))
                != nil)
        #expect(HelloLimits.refusal(of: hello([one], sessions: Array(repeating: "s", count: 65))) != nil)
        #expect(HelloLimits.refusal(of: hello([one], sessions: [long])) != nil)
    }

    @Test("a cut message keeps whole characters and says how much was cut")
    func cut() {
        let text = String(repeating: "é", count: 10) // 2 bytes each
        let cut = MessageBudget.cut(text, to: 5)
        #expect(cut.hasPrefix("éé") && !cut.hasPrefix("ééé"))
        #expect(cut.hasSuffix("[16 more bytes cut]"))
        #expect(MessageBudget.cut("short", to: 5) == "short")
    }

    @Test(
        "only http and https, methods and header names that are tokens, values without line breaks or control characters, at most 100 header fields and 64 KiB of them"
    )
    func requestPolicy() {
        func refusal(_ url: String, method: String = "GET", headers: [HeaderField] = []) -> String? {
            RequestPolicy.refusal(of: HTTPRequestPayload(url: url, method: method, headers: headers))
        }
        #expect(refusal("http://127.0.0.1:8080/feed") == nil)
        #expect(refusal("HTTPS://example.com/", method: "PATCH") == nil)
        #expect(refusal("http+unix://%2Frun%2Fsandglass.sock/status")?.contains("only http and https") == true)
        #expect(refusal("https+unix://%2Frun%2Fx.sock/")?.contains("only http and https") == true)
        #expect(refusal("unix:///run/sandglass.sock")?.contains("only http and https") == true)
        #expect(refusal("file:///etc/shadow")?.contains("only http and https") == true)
        #expect(refusal("http:///nohost") != nil)
        #expect(refusal("http://127.0.0.1/", method: "{\"command\":\"kill\"}")?.contains("not an HTTP token") == true)
        #expect(refusal("http://127.0.0.1/", method: "GET /x HTTP/1.1\r\nHost") != nil)
        #expect(refusal("http://127.0.0.1/", headers: [HeaderField("X-A", "1\r\nX-Injected: 2")])?.contains("line break") == true)
        #expect(refusal("http://127.0.0.1/", headers: [HeaderField("Bad Name", "1")])?.contains("header name") == true)
        #expect(refusal("http://127.0.0.1/", headers: [HeaderField("X-A", "1\u{7}2")])?.contains("control character") == true)
        #expect(refusal("http://127.0.0.1/", headers: [HeaderField("X-A", "tab\tand caf\u{E9}")]) == nil, "HTAB and obs-text are allowed")
        // Headers no server takes: each an object the journal decodes at every resume of its task.
        let many = (0..<101).map { HeaderField("X-\($0)", "1") }
        #expect(refusal("http://127.0.0.1/", headers: many)?.contains("101 header fields") == true)
        #expect(refusal("http://127.0.0.1/", headers: Array(many.prefix(100))) == nil)
        let long = [HeaderField("Cookie", String(repeating: "a", count: (64 << 10) - 10 + 1))]
        #expect(refusal("http://127.0.0.1/", headers: long)?.contains("KiB of header fields") == true)
        let most = [HeaderField("Cookie", String(repeating: "a", count: (64 << 10) - 10))]
        #expect(refusal("http://127.0.0.1/", headers: most) == nil, "64 KiB of header fields, counted as Cookie: value and a line break")
    }

    @Test("durations: numbers with units up to 100 years; negative, huge and malformed ones are refused with a reason, never a trap")
    func durations() {
        #expect(DurationText.parse("1d12h") == .seconds(129_600))
        #expect(DurationText.parse("250ms") == .milliseconds(250))
        #expect(DurationText.parse("36500d") == .seconds(36_500 * 86_400))
        for text in ["99999999999999999d", "1e308s", "36501d", "1e400s"] {
            #expect(DurationText.parse(text) == nil, "\(text)")
            #expect(DurationText.problem(with: text) != nil, "\(text)")
        }
        #expect(DurationText.problem(with: "99999999999999999d")?.contains("longest") == true)
        #expect(DurationText.problem(with: "-5s") == "a duration cannot be negative")
        #expect(DurationText.problem(with: "5 parsecs")?.contains("a number and a unit") == true)
        #expect(DurationText.problem(with: "2h") == nil)
    }

    @Test("a route file's error names the line and column, never its content")
    func routeErrorsShowNoContent() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("route-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "root:$y$j9T$SECRETHASH:19000:0:99999:7:::"
        for (name, text) in [
            ("shadow.csv", secret + "\n"), ("header.csv", "secret,latitude,longitude\n1,2,3\n"),
            ("cells.csv", "1,SECRET,3\n"), ("time.csv", "SECRET,1,2\n"), ("alt.csv", "1,2,3,SECRET\n")
        ] {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try RouteFile.load(path)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(!error.description.contains("SECRET") && !error.description.contains("secret"), "\(name): \(error)")
                #expect(error.description.contains("line"), "\(name): \(error)")
            }
        }
    }
}
