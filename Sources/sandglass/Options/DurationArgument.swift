import ArgumentParser

/// A duration on the command line: a number and a unit — `ms`, `s`, `m`, `h` or `d` (`90s`, `7d`, `250ms`).
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let duration: Duration
    let text: String

    init?(argument: String) {
        guard let parsed = DurationArgument.parse(argument) else { return nil }
        duration = parsed
        text = argument
    }

    /// `nil` unless `text` is a non-negative number followed by one of the units.
    static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "5ms" ends in "s" too: it is not 5m followed by "s".
            if suffix == "s" && number.hasSuffix("m") { continue }
            guard let value = Double(number), value >= 0, value.isFinite else { return nil }
            return .nanoseconds(Int64(value * seconds * 1e9))
        }
        return nil
    }

    var description: String { text }
}
