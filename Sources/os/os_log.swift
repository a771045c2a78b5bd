import Foundation

/// Logs a printf-style message: `os_log("fetched %d items for %{public}@", log: log, type: .info, count, user)`.
///
/// Conversions `%d %i %u %ld %lld %x %X %o %c %s %@ %f %e %g %a %p %%`, with flags, width and
/// precision, and the privacy markers `%{public}`, `%{private}`, `%{sensitive}` (more
/// comma-separated words, such as `%{public, name=…}` or `%{time_t}`, are accepted and
/// ignored). Objects (`%@`) and C strings (`%s`) are private unless marked public; numbers are
/// public unless marked private — Apple's rules.
public func os_log(
    _ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
    type: OSLogType = .default, _ args: CVarArg...
) {
    guard log.isEnabled(type: type) else { return }
    let text = LogFormat.format(message.description, args, revealsPrivate: LogSink.revealsPrivate)
    LogSink.write(type, subsystem: log.subsystem, category: log.category, text)
}

/// Logs `message` (with interpolations) at `type` to `log`.
@_disfavoredOverload
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer = #dsohandle, log: OSLog, _ message: OSLogMessage) {
    Logger(log).log(level: type, message)
}

/// Logs `message` (with interpolations) at `type` to the default log.
@_disfavoredOverload
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer = #dsohandle, _ message: OSLogMessage) {
    Logger().log(level: type, message)
}

/// Logs `message` (with interpolations) at the default level to `log`.
@_disfavoredOverload
public func os_log(dso: UnsafeRawPointer = #dsohandle, log: OSLog, _ message: OSLogMessage) {
    Logger(log).log(message)
}

/// Logs `message` (with interpolations) at the default level to the default log.
@_disfavoredOverload
public func os_log(dso: UnsafeRawPointer = #dsohandle, _ message: OSLogMessage) {
    Logger().log(message)
}

/// The printf-style formatter of `os_log`.
enum LogFormat {
    static func format(_ format: String, _ args: [CVarArg], revealsPrivate: Bool) -> String {
        var out = ""
        var next = args.makeIterator()
        let chars = Array(format.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else {
                out.unicodeScalars.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < chars.count else {
                out += "%"
                break
            }
            if chars[i] == "%" {
                out += "%"
                i += 1
                continue
            }
            // Privacy: %{public}, %{private}, %{sensitive}, with other words ignored.
            var privacy: OSLogPrivacy?
            if chars[i] == "{" {
                var j = i + 1
                var words = ""
                while j < chars.count, chars[j] != "}" {
                    words.unicodeScalars.append(chars[j])
                    j += 1
                }
                for word in words.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    switch word {
                    case "public": privacy = .public
                    case "private": privacy = .private
                    case "sensitive": privacy = .sensitive
                    default: break
                    }
                }
                i = min(j + 1, chars.count)
            }
            // Flags, width, precision, length: kept for numbers.
            var spec = "%"
            while i < chars.count, "-+ #0123456789.*".unicodeScalars.contains(chars[i]) {
                spec.unicodeScalars.append(chars[i])
                i += 1
            }
            while i < chars.count, "hlqLjzt".unicodeScalars.contains(chars[i]) { i += 1 }
            guard i < chars.count else { break }
            let conversion = chars[i]
            i += 1
            let arg = next.next()
            let (text, isScalar) = render(conversion, spec: spec, arg)
            out += (privacy ?? .auto).apply(to: text, isScalar: isScalar, revealsPrivate: revealsPrivate)
        }
        return out
    }

    /// One argument under its conversion; whether it is a number (public by default).
    private static func render(_ conversion: Unicode.Scalar, spec: String, _ arg: CVarArg?) -> (String, Bool) {
        guard let arg else { return ("<missing argument>", true) }
        switch conversion {
        case "d", "i":
            return (String(format: spec + "lld", integer(arg)), true)
        case "u", "x", "X", "o":
            return (String(format: spec + "ll" + String(conversion), UInt64(bitPattern: integer(arg))), true)
        case "c":
            return (Unicode.Scalar(UInt32(truncatingIfNeeded: integer(arg))).map { String(Character($0)) } ?? "?", true)
        case "f", "F", "e", "E", "g", "G", "a", "A":
            return (String(format: spec + String(conversion), floating(arg)), true)
        case "p":
            return ("0x" + String(UInt64(bitPattern: integer(arg)), radix: 16), true)
        case "s":
            if let string = arg as? String { return (string, false) }
            if let pointer = arg as? UnsafePointer<CChar> { return (String(cString: pointer), false) }
            if let pointer = arg as? UnsafeMutablePointer<CChar> { return (String(cString: pointer), false) }
            return (String(describing: arg), false)
        default:
            // %@ and anything unknown: the object's description.
            return (String(describing: arg), false)
        }
    }

    private static func integer(_ arg: CVarArg) -> Int64 {
        switch arg {
        case let v as Int: Int64(v)
        case let v as Int8: Int64(v)
        case let v as Int16: Int64(v)
        case let v as Int32: Int64(v)
        case let v as Int64: v
        case let v as UInt: Int64(truncatingIfNeeded: v)
        case let v as UInt8: Int64(v)
        case let v as UInt16: Int64(v)
        case let v as UInt32: Int64(v)
        case let v as UInt64: Int64(truncatingIfNeeded: v)
        case let v as Bool: v ? 1 : 0
        case let v as Double: Int64(exactly: v.rounded(.towardZero)) ?? 0
        case let v as NSNumber: v.int64Value
        default: 0
        }
    }

    private static func floating(_ arg: CVarArg) -> Double {
        switch arg {
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as CGFloat: Double(v)
        case let v as NSNumber: v.doubleValue
        default: Double(integer(arg))
        }
    }
}
