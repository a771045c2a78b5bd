import ArgumentParser
import SandglassHost

/// A duration on the command line: numbers with units — `ms`, `s`, `m`, `h` or `d` (`90s`, `7d`,
/// `250ms`, `1d12h`), at most 100 years. Anything else (a negative or huge one included) is bad
/// input: exit status 2 with the parser's message.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let duration: Duration
    let text: String

    init?(argument: String) {
        guard let parsed = DurationText.parse(argument) else { return nil }
        duration = parsed
        text = argument
    }

    /// `nil` unless `text` is a duration (see ``DurationText``).
    static func parse(_ text: String) -> Duration? { DurationText.parse(text) }

    var description: String { text }
}
