import Foundation

/// Colour and emphasis for one output stream: only when it is a terminal, `NO_COLOR` is unset
/// or empty (https://no-color.org) and `TERM` is not `dumb`.
struct TerminalStyle: Sendable {
    /// Whether escapes are written at all.
    let colour: Bool
    /// Whether the stream is a terminal (progress is a rewritten line there).
    let isTerminal: Bool

    init(fd: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        isTerminal = isatty(fd) != 0
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colour = isTerminal && !noColour && environment["TERM"] != "dumb"
    }

    static let standardOutput = TerminalStyle(fd: 1)
    static let standardError = TerminalStyle(fd: 2)

    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// `PASS` in green or `FAIL` in red.
    func verdict(_ passed: Bool) -> String {
        passed ? bold(green("PASS")) : bold(red("FAIL"))
    }

    private func wrap(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
