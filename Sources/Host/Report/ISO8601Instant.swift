import Foundation

/// Reads the ISO 8601 dates of the event log (`2026-11-21T22:13:40.641Z`) back into seconds
/// since 1970, without a formatter (a report reads thousands of them).
enum ISO8601Instant {
    /// Seconds since 1970 of `text` (UTC with `Z`, or an offset such as `+02:00`), `nil` when it
    /// is not such a date.
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let digit = Int(bytes[i]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            let digits = bytes[(index + 1)...].filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 4, let value = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
            offset = sign * ((value / 100) * 3600 + (value % 100) * 60)
        default:
            return nil
        }
        // Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}
