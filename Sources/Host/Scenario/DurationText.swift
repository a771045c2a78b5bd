/// Durations as scenario files write them: numbers with units, `ms`, `s`, `m`, `h` or `d`
/// (`90s`, `15m`, `2.5h`, `3d`, `1d12h`).
enum DurationText {
    /// `nil` unless `text` is one or more numbers with units, e.g. `15m`, `1d12h`, `2.5s`.
    static func parse(_ text: String) -> Duration? {
        let units: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400]
        var rest = Substring(text)
        var seconds = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let value = Double(number), value >= 0, value.isFinite, let size = units[String(unit)] else { return nil }
            seconds += value * size
        }
        return .nanoseconds(Int64(seconds * 1e9))
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
