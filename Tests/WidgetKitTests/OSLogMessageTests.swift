import Foundation
import Testing

@testable import os

/// `OSLogMessage` interpolation and `os_log` format strings: privacy, masks, formats and
/// alignment, as the event log shows them.
@Suite("OSLog messages")
struct OSLogMessageTests {
    private func text(_ message: OSLogMessage, revealsPrivate: Bool = false) -> String {
        message.text(revealsPrivate: revealsPrivate)
    }

    @Test(".auto redacts strings and objects, shows numbers and Booleans; .public and .private as marked")
    func privacy() {
        let user = "amy@example.com"
        let count = 42
        #expect(text("user \(user) has \(count) items, ok \(true), ratio \(0.5)") == "user <private> has 42 items, ok true, ratio 0.500000")
        #expect(text("user \(user, privacy: .public)") == "user amy@example.com")
        #expect(text("count \(count, privacy: .private)") == "count <private>")
        #expect(text("url \(URL(string: "https://example.com")!)") == "url <private>")
        #expect(text("type \(Int.self, privacy: .public)") == "type Int")
        struct Failure: Error {}
        #expect(text("failed: \(Failure() as any Error)") == "failed: <private>")
    }

    @Test("revealed, .private and .auto show; .sensitive never does; a .hash mask shows a stable hash")
    func revealedAndMasks() {
        let code = "J4X-22"
        #expect(text("\(code) \(code, privacy: .private) \(code, privacy: .sensitive)", revealsPrivate: true) == "J4X-22 J4X-22 <private>")
        let hashed = text("\(code, privacy: .private(mask: .hash))")
        #expect(hashed.hasPrefix("<mask.hash: '") && hashed.hasSuffix("'>") && !hashed.contains(code))
        #expect(hashed == text("\(code, privacy: .sensitive(mask: .hash))"))
        #expect(hashed != text("\("other", privacy: .auto(mask: .hash))"))
    }

    @Test("integer, float and Boolean formats, and alignment")
    func formats() {
        #expect(text("\(255, format: .hex)") == "ff")
        #expect(text("\(255, format: .hex(includePrefix: true, uppercase: true))") == "0XFF")
        #expect(text("\(8, format: .octal(includePrefix: true))") == "010")
        #expect(text("\(7, format: .decimal(explicitPositiveSign: true, minDigits: 3))") == "+007")
        #expect(text("\(-7, format: .decimal(minDigits: 2))") == "-07")
        #expect(text("\(UInt8(200)) \(Int64(-3))") == "200 -3")
        #expect(text("\(3.14159, format: .fixed(precision: 2))") == "3.14")
        #expect(text("\(1234.5, format: .exponential(precision: 1))") == "1.2e+03")
        #expect(text("\(Float(2.5), format: .fixed(precision: 1))") == "2.5")
        #expect(text("\(false, format: .answer)") == "NO")
        #expect(text("[\("ab", align: .left(columns: 4), privacy: .public)][\(7, align: .right(columns: 3))]") == "[ab  ][  7]")
    }

    @Test("os_log format strings: conversions, flags, privacy markers, %%")
    func formatStrings() {
        let format = "%{public}@ bought %d × %{public}s at %5.2f (%x) for %@ %{private}d %{public, name=k}u 100%%"
        let text = LogFormat.format(format, ["Amy", 3, "tea", 2.5, 255, "card 1234", 9, UInt(4)], revealsPrivate: false)
        #expect(text == "Amy bought 3 × tea at  2.50 (ff) for <private> <private> 4 100%")
        #expect(LogFormat.format("%ld items, %lld total, %c", [2, Int64(5), 65], revealsPrivate: false) == "2 items, 5 total, A")
        #expect(LogFormat.format("missing %d", [], revealsPrivate: false) == "missing <missing argument>")
        #expect(LogFormat.format("%{sensitive}@ %@", ["a", "b"], revealsPrivate: true) == "<private> b")
    }

    @Test("OSLogType levels as the event log names them")
    func levels() {
        #expect([OSLogType.debug, .info, .default, .error, .fault].map(\.levelName) == ["debug", "info", "notice", "error", "fault"])
        #expect(OSLog.disabled.isEnabled(type: .fault) == false)
        #expect(OSLog(subsystem: "s", category: .pointsOfInterest).category == "PointsOfInterest")
    }
}
