import Foundation
import Glibc

/// The readable trace: one line per event, in words a person who has never seen the tool can
/// follow. Goes to standard error or output.
final class TerminalTrace: EventSink {
    private let fd: Int32

    init(_ destination: TraceDestination) {
        fd = destination == .standardOutput ? 1 : 2
    }

    func write(_ event: HostEvent) {
        guard let text = TraceRenderer.render(event) else { return }
        let line = TraceRenderer.stamp(event.t) + "  " + text + "\n"
        var remaining = Array(line.utf8)[...]
        while !remaining.isEmpty {
            let n = remaining.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            remaining = remaining.dropFirst(n)
        }
    }

    func close() {}
}

/// Turns events into sentences.
public enum TraceRenderer {
    /// `   12.345s` within the first hour, `2d 03:04:05` beyond.
    public static func stamp(_ ms: Double) -> String {
        let ms = ms.isFinite ? min(max(ms, -1e15), 1e15) : 0
        if ms < 3_600_000 {
            let s = String(format: "%.3fs", ms / 1000)
            return String(repeating: " ", count: max(0, 10 - s.count)) + s
        }
        let total = Int(ms / 1000)
        let days = total / 86400, h = (total % 86400) / 3600, m = (total % 3600) / 60, s = total % 60
        return String(format: "%dd %02d:%02d:%02d", days, h, m, s)
    }

    /// The sentence for `event`, `nil` for events the trace leaves out. Printable whatever an
    /// extension put in it (``printable(_:)``): it goes to a person's terminal.
    public static func render(_ e: HostEvent) -> String? {
        sentence(e).map(printable)
    }

    /// `text` with what a terminal would act on written out instead (`\u{1B}`, `\n`): C0 and
    /// C1 control characters, DEL, and the bidirectional overrides and isolates that reorder
    /// what is shown. An extension's text cannot move the cursor, set the title or the
    /// clipboard, clear the screen, or start a line of the trace of its own.
    public static func printable(_ text: String) -> String {
        writingOut(text, where: isActedOn)
    }

    /// `text` with each scalar `writtenOut` selects written as `\n`, `\r`, `\t` or `\u{…}`:
    /// the trace's and the report's way (``HTMLText/escapeVisibly(_:)``).
    package static func writingOut(_ text: String, where writtenOut: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: writtenOut) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard writtenOut(scalar) else {
                out.append(scalar)
                continue
            }
            let escaped =
                switch scalar {
                case "\n": "\\n"
                case "\r": "\\r"
                case "\t": "\\t"
                default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            out.append(contentsOf: escaped.unicodeScalars)
        }
        return String(out)
    }

    /// C0 controls, and what the event log escapes beyond them.
    private static func isActedOn(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || JSONValue.escapedInLog(scalar)
    }

    private static func sentence(_ e: HostEvent) -> String? {
        let bundle = e.bundle ?? "?"
        let pid = e.pid.map { "pid \($0)" } ?? "?"
        switch e.kind {
        case .runStart:
            var parts = ["run started on the \(e.string("clock") ?? "real") clock"]
            if case .object(let sandbox)? = e["sandbox"] {
                parts.append("sandbox: " + sandbox.map { "\($0.0) \($0.1.stringValue ?? "")" }.joined(separator: ", "))
                // The layers the run goes without, last and marked: what extensions can do here
                // that the sandbox's table says they cannot.
                let gaps = sandbox.compactMap { layer, state in SandboxGap.isGap(state.stringValue ?? "") ? layer : nil }
                if !gaps.isEmpty { parts.append("⚠ without \(gaps.joined(separator: ", "))") }
            }
            return parts.joined(separator: " · ")
        case .appGroupPrepared:
            let shared =
                (e["extensions"]?.resolved).flatMap { value -> [String]? in
                    guard case .array(let list) = value else { return nil }
                    return list.compactMap(\.stringValue)
                } ?? []
            let gid = e.int("gid").map { " · gid \($0)" } ?? ""
            let seed = e.string("seededFrom").map { " · seeded from \($0)" } ?? ""
            return
                "app group \(e.string("group") ?? "?") of \(e.string("app") ?? "?") shared with \(shared.isEmpty ? "no extension" : shared.joined(separator: ", "))\(gid)\(seed)"
        case .appGroupRepaired:
            return "⚠ app group \(e.string("group") ?? "?") of \(e.string("app") ?? "?") repaired: \(e.string("detail") ?? "")"
        case .widgetConfigured:
            return "widget \(e.string("kind") ?? "?") of \(bundle) configured: \(e["configuration"]?.serialized ?? "none")"
        case .installed:
            var names: [String] = []
            if case .array(let exts)? = e["extensions"] {
                for case .object(let f) in exts {
                    let id = f.first { $0.0 == "bundle" }?.1.stringValue ?? "?"
                    let point = f.first { $0.0 == "point" }?.1.stringValue ?? ""
                    names.append("\(id) (\(point == "com.apple.widget-extension" ? "Today extension" : "widget extension"))")
                }
            }
            return
                "installed \(e.string("app") ?? "?") from \(URL(fileURLWithPath: e.string("path") ?? "").lastPathComponent) · extensions: \(names.joined(separator: ", "))"
        case .spawned:
            let mem = (e.int("memoryLimitBytes") ?? 0) >> 20
            return
                "spawned \(bundle) as \(pid) (launch #\(e.int("launch") ?? 0), \(ms(e.double("ms")))) · memory limit \(mem) MiB enforced by \(e.string("memoryEnforcement") ?? "?")"
        case .spawnFailed:
            return "could not spawn \(bundle): \(e.string("error") ?? "")"
        case .hello:
            var kinds: [String] = []
            if case .array(let a)? = e["kinds"] { kinds = a.compactMap(\.stringValue) }
            return "\(pid) said hello \(ms(e.double("ms"))) after exec · protocol \(e.string("version") ?? "?")"
                + (kinds.isEmpty ? "" : " · widget kinds: \(kinds.joined(separator: ", "))")
        case .widgetAdded where e.string("family") == "today":
            return "Today widget of \(bundle) added to the Today view (principal class \(e.string("principalClass") ?? "?"))"
        case .widgetAdded:
            return "widget \(e.string("kind") ?? "?") of \(bundle) added to the home screen (\(e.string("family") ?? "?"))"
        case .activationStart:
            return "→ \(activationName(e)) · \(pid) · budget \(ms(e.double("budgetMs")))"
        case .activationEnd:
            let name = activationName(e)
            switch e.string("outcome") {
            case "ok": return "← \(name) answered in \(ms(e.double("ms")))"
            case "declined": return "← \(name) declined after \(ms(e.double("ms"))): no configuration takes the session"
            case "killed":
                return "← \(name) did not finish: the extension was killed (\(e.string("reason") ?? "?")) after \(ms(e.double("ms")))"
            default: return "← \(name) failed after \(ms(e.double("ms"))): \(e.string("error") ?? "?")"
            }
        case .reloadRequested:
            var text = "reload of \(e.string("kind") ?? "?") (\(bundle)) requested: \(e.string("reason") ?? "?")"
            if let origin = e.string("origin"), origin != "system" { text += " from the \(origin)" }
            if e["charged"] == .bool(true) {
                text += " · charged, \(e.int("remaining") ?? 0) of \(e.int("limit") ?? 0) left"
            } else if let exempt = e.string("exempt") {
                text += " · free (\(exemptionWords(exempt)))"
            }
            return text
        case .reloadDenied:
            let what = "reload of \(e.string("kind") ?? "?") (\(bundle))" + (e.string("requested").map { " (\($0))" } ?? "")
            switch e.string("reason") {
            case "budgetExhausted":
                return
                    "\(what) withheld: budget exhausted (\(e.int("used") ?? 0) of \(e.int("limit") ?? 0) in 24 h) until \(stamp(e.double("until") ?? 0).trimmingCharacters(in: .whitespaces))"
            case "extensionFailed":
                return "\(what) denied: the extension failed permanently"
            default:
                return "\(what) denied: \(e.string("reason") ?? "?")" + (e.string("detail").map { " — \($0)" } ?? "")
            }
        case .reloadCoalesced:
            return
                "reload of \(e.string("kind") ?? "?") (\(bundle)) for \(e.string("reason") ?? "?") merged into the one already due (\(e.string("into") ?? "?"))"
        case .reloadFailed:
            var text =
                "reload of \(e.string("kind") ?? "?") (\(bundle)) produced no timeline (\(e.string("outcome") ?? "?")); "
                + ((e["keptTimeline"] == .bool(true)) ? "the last good timeline stays on screen" : "the widget keeps its placeholder")
            if let retry = e.double("retryAt") {
                text +=
                    " · retry at \(stamp(retry).trimmingCharacters(in: .whitespaces))"
                    + (e["backoff"] == .bool(true) ? " (after the extension's backoff)" : "")
            } else if e["retryAt"] == .null {
                text += " · no retry: the extension failed permanently"
            }
            return text
        case .timeline:
            var count = 0
            if case .array(let a)? = e["entries"] { count = a.count }
            var next = e.string("nextReloadDate").map { "next reload at \($0)" } ?? "no automatic reload"
            if e["systemChosen"] == .bool(true) { next += " (chosen by the system: one entry, \(e.string("visibility") ?? "?") visible)" }
            if e["clamped"] == .bool(true) { next += " (its .after date was sooner than the 5-minute minimum)" }
            return
                "timeline for \(e.string("kind") ?? "?") (\(bundle)): \(count) \(count == 1 ? "entry" : "entries") · policy \(e.string("policy") ?? "?") · \(next)"
        case .backoffScheduled:
            return
                "\(bundle) failed (\(e.string("cause") ?? "?")), \(e.int("failures") ?? 0) in a row: no relaunch for \(ms(e.double("delayMs"))), until \(stamp(e.double("until") ?? 0).trimmingCharacters(in: .whitespaces))"
        case .backoffCleared:
            return "\(bundle): failures in a row cleared" + (e.string("detail").map { " — \($0)" } ?? "")
        case .extensionFailedPermanently:
            return
                "✗ \(bundle) failed permanently: \(e.int("failures") ?? 0) failures in a row within \(ms(e.double("withinMs"))); it is not launched again"
        case .appState:
            return "app \(e.string("app") ?? "?"): \(e.string("activity") ?? "?") \(e["active"] == .bool(true) ? "began" : "ended")"
        case .visibilityChanged:
            return "visibility of \(e.string("widget") ?? "every widget") is now \(e.string("visibility") ?? "?")"
        case .systemChanged:
            return "system change: \(e.string("change") ?? "?") — every widget reloads, free"
        case .invariantViolated:
            return "✗ invariant violated (\(e.string("invariant") ?? "?")): \(e.string("detail") ?? "")"
        case .hostWarning:
            return "warning: \(e.string("warning") ?? "")"
        case .killed:
            return "✗ killed \(pid) (\(bundle)) — \(e.string("reason") ?? "?"): \(e.string("detail") ?? "")"
        case .exited:
            let how = e.string("signal").map { "by \($0)" } ?? "with status \(e.int("status") ?? -1)"
            let rss = Double(e.int("peakRSSKiB") ?? 0) / 1024
            return
                "\(pid) (\(bundle)) ended \(how) · cpu \(e.int("cpuMs") ?? 0) ms · peak RSS \(String(format: "%.1f", rss)) MiB · lived \(ms(e.double("lifetimeMs")))"
        case .sandboxDenied:
            return "sandbox denied \(e.string("call") ?? e.string("syscall") ?? "?") to \(pid) (\(bundle)) → \(e.string("error") ?? "")"
        case .protocolViolation:
            return "protocol violation by \(pid) (\(bundle)): \(e.string("error") ?? "")"
        case .log:
            switch e.string("stream") {
            case "sdk": return "\(pid) logged (\(e.string("level") ?? "")): \(e.string("message") ?? "")"
            case "oslog":
                let logger = [e.string("subsystem"), e.string("category")].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
                return "\(pid) logged (\(e.string("level") ?? "")\(logger.isEmpty ? "" : " \(logger)")): \(e.string("message") ?? "")"
            default: return "\(pid) printed: \(e.string("message") ?? "")"
            }
        case .extensionError:
            return "\(pid) (\(bundle)) reported an error: \(e.string("message") ?? "")"
        case .updateRequested:
            return "Today widget of \(bundle) asked to update (\(e.string("reason") ?? "?"))"
        case .updateResult:
            let result = e.string("result") ?? "?"
            let mark = e.string("verdict") == "completed" ? "✓" : "✗"
            return "\(mark) update of \(bundle): .\(result) · \(e.string("verdict") ?? "?") — \(e.string("detail") ?? "")"
        case .updateMisuse:
            return "⚠ \(pid) (\(bundle)) misused widgetPerformUpdate: \(e.string("detail") ?? "")"
        case .mainThreadBlocked:
            return "⚠ \(pid) (\(bundle)) main thread: \(e.string("detail") ?? "")"
        case .widgetsVisible:
            let until = e.string("untilDate").map { " until \($0)" } ?? ""
            return "the widgets are on screen\(until) (visibility \(e.string("schedule") ?? "?"))"
        case .widgetsHidden:
            let next = e.string("nextViewDate").map { "next view at \($0)" } ?? "not viewed again"
            return "the widgets are off screen; \(next) (visibility \(e.string("schedule") ?? "?"))"
        case .locationAuthorization:
            var widgets: [String] = []
            if case .array(let exts)? = e["extensions"] {
                for case .object(let f) in exts {
                    let id = f.first { $0.0 == "bundle" }?.1.stringValue ?? "?"
                    let yes = f.first { $0.0 == "authorizedForWidgetUpdates" }?.1 == .bool(true)
                    widgets.append("\(id) \(yes ? "yes" : "no")")
                }
            }
            return "location: the app's authorization is \(e.string("authorization") ?? "?"), widgets \(e.string("widgetLocation") ?? "?")"
                + (widgets.isEmpty ? "" : " · isAuthorizedForWidgetUpdates: \(widgets.joined(separator: ", "))")
        case .locationPrompt:
            return "the system asked whether to extend the app's location to the widgets of \(bundle): \(e.string("answer") ?? "?")"
        case .locationDelivered:
            return
                "location \(String(format: "%.5f,%.5f", e.double("latitude") ?? 0, e.double("longitude") ?? 0)) delivered to \(pid) (\(bundle)) for \(e.string("mode") ?? "?")"
        case .locationUnavailable:
            return "no location for \(pid) (\(bundle)), \(e.string("mode") ?? "?") — \(e.string("why") ?? "?"): \(e.string("detail") ?? "")"
        case .locationSignificantChange:
            var count = 0
            if case .array(let a)? = e["widgets"] { count = a.count }
            let when = e.string("deliveredWhen") == "now" ? "now" : "when the widgets are next visible"
            return
                "significant location change: moved \(Int(e.double("meters") ?? 0)) m to \(e.string("to") ?? "?"); \(count) widget\(count == 1 ? "" : "s") reloaded \(when), free of budget"
        case .locationMoved:
            return "the device moved to \(e.string("position") ?? "?")"
        case .scenarioChange:
            let parts = ["authorization", "widgetLocation", "visibility", "position"].compactMap { key in
                e.string(key).map { "\(key) → \($0)" }
            }
            return "scenario: \(parts.joined(separator: ", "))" + (e.string("note").map { " (\($0))" } ?? "")
        case .runEnd:
            return "run ended"
        case .taskCreated:
            let inline = e["inline"] == .bool(true)
            return
                "\(pid) created \(inline ? "an inline" : "a background") \(e.string("taskKind") ?? "") task #\(e.int("taskId") ?? 0)\(inline ? "" : " in session \(e.string("session") ?? "")") for \(e.string("url") ?? "")"
        case .taskStarted:
            return "the host performs inline task #\(e.int("taskId") ?? 0) for \(pid)"
        case .taskFinished:
            return "inline task #\(e.int("taskId") ?? 0) of \(pid) finished: HTTP \(e.int("status") ?? 0)"
        case .taskFailed:
            return "inline task #\(e.int("taskId") ?? 0) of \(pid) failed: \(e.string("error") ?? "")"
        case .taskCancelled:
            return "task #\(e.int("taskId") ?? 0) of \(bundle) cancelled" + (e.string("detail").map { ": \($0)" } ?? "")
        case .taskRecovered:
            return
                "task #\(e.int("taskId") ?? 0) of session \(e.string("session") ?? "") resumes after the host restarted (\(e.int("bytesOnDisk") ?? 0) bytes already on disk)"
        case .downloadStarted:
            let from = e.int("resumeFrom") ?? 0
            return
                "the host starts downloading task #\(e.int("taskId") ?? 0) for \(bundle) (attempt \(e.int("attempt") ?? 1)\(from > 0 ? ", resuming at byte \(from)" : ""))"
        case .downloadRetry:
            return "download of task #\(e.int("taskId") ?? 0) failed (\(e.string("error") ?? "")); retry in \(ms(e.double("delayMs")))"
        case .downloadFinished:
            return
                "download of task #\(e.int("taskId") ?? 0) finished: HTTP \(e.int("status") ?? 0), \(e.int("bytes") ?? 0) bytes — events queued for session \(e.string("session") ?? "")"
        case .downloadFailed:
            return "download of task #\(e.int("taskId") ?? 0) failed for good: \(e.string("error") ?? "")"
        case .sessionAttached:
            let ended = e.int("endedTasks") ?? 0
            return "\(pid) attached background session \(e.string("session") ?? "") (\(e.int("tasks") ?? 0) tasks of it still open"
                + (ended > 0 ? ", \(ended) ended with events waiting)" : ")")
        case .sessionInvalidated:
            let why: String =
                switch e.string("reason") {
                case nil: " by the extension"
                case "sessionConflict": " (sessionConflict: pid \(e.int("holder") ?? 0) holds it)"
                case "badIdentifier": " (badIdentifier: its identifier is empty or over 256 bytes)"
                case "tooManySessions": " (tooManySessions: the app holds as many sessions as it may)"
                case let reason?: " (\(reason))"
                }
            return "session \(e.string("session") ?? "") of \(pid) invalidated" + why
        case .eventDelivered:
            return "delivered \(e.string("callback") ?? "") for task #\(e.int("taskId") ?? 0) to \(pid) (attempt \(e.int("attempt") ?? 1))"
        case .eventsFinished:
            return
                "\(pid) called the completion handler: \(e.int("acknowledged") ?? 0) events of session \(e.string("identifier") ?? "") acknowledged and dropped from the journal"
        case .eventsDeclined:
            return
                "no configuration of \(bundle) takes session \(e.string("session") ?? ""): its \(e.int("events") ?? 0) events stay queued"
        case .eventsRedelivery:
            return
                "events of session \(e.string("session") ?? "") not acknowledged (\(e.string("outcome") ?? "")); delivering again in \(ms(e.double("delayMs")))"
        case .eventsWaiting:
            return "\(e.int("events") ?? 0) events of session \(e.string("session") ?? "") wait for \(bundle) to be installed"
        default:
            return nil
        }
    }

    private static func exemptionWords(_ exemption: String) -> String {
        switch exemption {
        case "appForeground": "the app is in the foreground"
        case "audioSession": "the app has an audio session"
        case "navigationSession": "the app has a navigation session"
        case "appIntent": "an app intent"
        case "systemChange": "a system change"
        case "significantLocationChange": "a significant location change"
        case "widgetAdded": "the widget's first timeline"
        case "configurationChanged": "the user edited the widget"
        case "debugReloads": "limits lifted for debugging"
        default: exemption
        }
    }

    private static func activationName(_ e: HostEvent) -> String {
        let kind = e.string("kind") ?? "?"
        if kind == "backgroundEvents", let session = e.string("session") {
            return "background events for session \(session)"
        }
        if let widget = e.string("widget") {
            let family = e.string("family").map { ", \($0)" } ?? ""
            let preview = e["isPreview"] == .bool(true) ? ", gallery preview" : ""
            return "\(kind) for \(widget)\(family)\(preview)"
        }
        return kind
    }

    private static func ms(_ value: Double?) -> String {
        guard let value else { return "?" }
        if value >= 10_000 { return String(format: "%.1f s", value / 1000) }
        if value >= 1000 { return String(format: "%.2f s", value / 1000) }
        return String(format: "%.1f ms", value)
    }
}
