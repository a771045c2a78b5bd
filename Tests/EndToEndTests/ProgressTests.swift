import Foundation
import SandglassHost
import Testing

/// Progress and colour: a rewritten line on a terminal (coloured unless NO_COLOR), plain lines
/// when the output is not a terminal, nothing but the result with --json.
@Suite("Progress and colour", .serialized)
struct ProgressTests {
    @Test("not a terminal: plain progress lines, no escape codes")
    func plainLines() async throws {
        let result = try await CommandLineTests.run(["run", try Examples.app("Leaderboard.app"), "--duration", "4s", "--progress"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.error.split(separator: "\n").filter { $0.hasPrefix("run: ") }
        #expect(!lines.isEmpty, "a plain progress line: \(result.error)")
        #expect(lines.allSatisfy { $0.contains("% · ") && $0.contains("on the real clock") })
        #expect(!result.error.contains("\u{1B}") && !result.output.contains("\u{1B}"), "no escapes off a terminal")
        #expect(!result.output.contains("said hello"), "progress replaces the trace")
        #expect(result.output.contains("summary:"))
    }

    /// Runs `command` on a pseudo-terminal (util-linux `script`) and returns what it printed there.
    static func onTerminal(_ command: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        try await offThePool { try onTerminal(blocking: command, environment: environment) }
    }

    /// ``onTerminal(_:environment:)``, blocking this thread.
    static func onTerminal(blocking command: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let quoted = ([CommandLineTests.sandglass] + command).map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(
            separator: " ")
        var env = testEnvironment
        env["TERM"] = "xterm-256color"
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        let outcome = try ChildProcess.run("/usr/bin/script", ["-qec", quoted, "/dev/null"], environment: env)
        return (outcome.termination.status, String(decoding: outcome.output, as: UTF8.self))
    }

    @Test(
        "a terminal: one line rewritten in place, erased before the summary; NO_COLOR turns colour off",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is needed for a pseudo-terminal"))
    func terminal() async throws {
        let app = try Examples.app("Leaderboard.app")
        let coloured = try await Self.onTerminal(["run", app, "--duration", "1500ms", "--quiet"])
        #expect(coloured.status == 0, "\(coloured.output)")
        #expect(coloured.output.contains("\r\u{1B}[2K"), "the line is rewritten in place")
        #expect(coloured.output.contains("\u{1B}[1mrun\u{1B}[0m"), "bold on a terminal")
        #expect(!coloured.output.contains("\nrun: "), "no plain lines on a terminal")
        #expect(coloured.output.contains("summary:"))

        let plain = try await Self.onTerminal(["run", app, "--duration", "1500ms", "--quiet"], environment: ["NO_COLOR": "1"])
        #expect(plain.status == 0)
        #expect(plain.output.contains("\r\u{1B}[2K"), "still one rewritten line")
        #expect(!plain.output.contains("\u{1B}[1m"), "no colour with NO_COLOR")
    }
}
