/// Durations as the command line, scenario files and the control socket write them: numbers
/// with units, `ms`, `s`, `m`, `h` or `d` (`90s`, `15m`, `2.5h`, `3d`, `1d12h`), at most
/// ``longest``.
public enum DurationText {
    /// The longest duration accepted: 100 years (a run's clock counts nanoseconds in 64 bits).
    public static let longest: Duration = .seconds(100 * 365 * 86_400)

    private static let units: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400]

    /// `nil` unless `text` is one or more non-negative numbers with units, e.g. `15m`, `1d12h`,
    /// `2.5s`, in all at most ``longest``; ``problem(with:)`` says why not.
    public static func parse(_ text: String) -> Duration? {
        guard let seconds = seconds(in: text), seconds <= Double(longest.components.seconds) else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// Why `text` is not a duration, for a person; `nil` when it is one.
    public static func problem(with text: String) -> String? {
        if text.hasPrefix("-") { return "a duration cannot be negative" }
        guard let seconds = seconds(in: text) else {
            return "write a number and a unit: ms, s, m, h or d (e.g. 500ms, 30s, 15m, 2h, 7d, 1d12h)"
        }
        if seconds > Double(longest.components.seconds) { return "it is longer than the longest duration, 36500d (100 years)" }
        return nil
    }

    /// The total in seconds, or `nil` when `text` is not numbers with units.
    private static func seconds(in text: String) -> Double? {
        var rest = Substring(text)
        var seconds = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let value = Double(number), value >= 0, value.isFinite, let size = units[String(unit)] else { return nil }
            seconds += value * size
            guard seconds.isFinite else { return nil }
        }
        return seconds
    }
}

extension DurationText {
    /// The compound form: `3d`, `1d1m`, `15m`, `90s` → `1m30s`, `250ms`.
    static func describe(_ duration: Duration) -> String {
        var ms = duration.nanoseconds / 1_000_000
        guard ms > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", UInt64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)] where ms >= size {
            text += "\(ms / size)\(unit)"
            ms %= size
        }
        return text
    }
}
