/// Durations as scenario files write them: a number and a unit, `ms`, `s`, `m`, `h` or `d`
/// (`90s`, `15m`, `2.5h`, `3d`) — the same as the command line's.
enum DurationText {
    static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            if suffix == "s" && number.hasSuffix("m") { continue }
            guard let value = Double(number), value >= 0, value.isFinite else { return nil }
            return .nanoseconds(Int64(value * seconds * 1e9))
        }
        return nil
    }
}

extension DurationText {
    /// The shortest exact form: `3d`, `15m`, `90s`, `250ms`.
    static func describe(_ duration: Duration) -> String {
        let ms = duration.nanoseconds / 1_000_000
        for (unit, size) in [("d", UInt64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)] where ms >= size && ms % size == 0 {
            return "\(ms / size)\(unit)"
        }
        return "\(ms)ms"
    }
}
