import Foundation
import Synchronization

/// Progress of a long run on standard error: on a terminal a single line rewritten in place
/// (and erased at the end); elsewhere — a CI log, a file — plain lines, one at each tenth of
/// the way and at least once a minute, at most one every few seconds, none at all for work
/// that ends quickly.
final class ProgressLine: Sendable {
    enum Mode: Sendable {
        /// A terminal: one rewritten line.
        case line
        /// Not a terminal: plain lines now and then.
        case plain
        /// Nothing (`--quiet`, `--json`).
        case off
    }

    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var lastPlain: ContinuousClock.Instant?
        var lastTenth = 0
        var drawn = false
    }

    let mode: Mode
    private let label: String
    private let started = ContinuousClock.now
    private let state = Mutex(State())
    private let style = TerminalStyle.standardError

    /// Plain lines wait this long after the start, and as long between them.
    static let plainInterval: Duration = .seconds(3)
    /// A long run prints a plain line at least this often, between its tenths.
    static let plainHeartbeat: Duration = .seconds(60)

    /// A progress line for `label` (`run`, `bench`): `.line` on a terminal, else `.plain` —
    /// or `.off` when `enabled` is false.
    init(_ label: String, enabled: Bool = true, plainWhenNotTerminal: Bool = true) {
        self.label = label
        if !enabled {
            mode = .off
        } else if TerminalStyle.standardError.isTerminal {
            mode = .line
        } else {
            mode = plainWhenNotTerminal ? .plain : .off
        }
    }

    /// Shows `detail` with `fraction` (0…1) done, when there is something new to show.
    func update(_ fraction: Double?, _ detail: String) {
        guard mode != .off else { return }
        let now = ContinuousClock.now
        let text: String? = state.withLock { s in
            switch mode {
            case .line:
                if let last = s.lastDraw, now - last < .milliseconds(100) { return nil }
                s.lastDraw = now
                s.drawn = true
                let bar = fraction.map { Self.bar($0) + " " + String(format: "%3.0f%%", $0 * 100) + " " } ?? ""
                return "\r\u{1B}[2K" + Self.fit(style.bold(label) + " " + bar + detail, columns: Self.columns(), escapes: style.colour)
            case .plain:
                let tenth = Int((fraction ?? 0) * 10)
                guard now - started >= Self.plainInterval else { return nil }
                if let last = s.lastPlain, now - last < Self.plainInterval { return nil }
                let heartbeat = s.lastPlain.map { now - $0 >= Self.plainHeartbeat } ?? true
                guard fraction == nil || tenth > s.lastTenth || heartbeat else { return nil }
                s.lastTenth = tenth
                s.lastPlain = now
                return "\(label): " + (fraction.map { String(format: "%.0f%% · ", $0 * 100) } ?? "") + detail + "\n"
            case .off:
                return nil
            }
        }
        if let text { Self.write(text) }
    }

    /// Erases the line (terminal), so that what is printed next starts clean.
    func finish() {
        guard mode == .line else { return }
        let drawn = state.withLock { s in
            defer { s.drawn = false }
            return s.drawn
        }
        if drawn { Self.write("\r\u{1B}[2K") }
    }

    /// Wall time since the progress began, for the detail text: `12.3 s`.
    var elapsed: String {
        let d = ContinuousClock.now - started
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return s < 60 ? String(format: "%.1f s", s) : String(format: "%d min %02d s", Int(s) / 60, Int(s) % 60)
    }

    static func bar(_ fraction: Double, width: Int = 20) -> String {
        let filled = Int((max(0, min(1, fraction)) * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    /// The terminal's width (TIOCGWINSZ on standard error), 80 when unknown.
    static func columns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// `text` cut so that it does not wrap (escapes take no columns).
    static func fit(_ text: String, columns: Int, escapes: Bool) -> String {
        var visible = 0
        var out = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                out.append(character)
                if character == "m" { inEscape = false }
                continue
            }
            if visible >= columns - 1 { break }
            out.append(character)
            visible += 1
        }
        return out + (escapes ? "\u{1B}[0m" : "")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
