import Foundation
import SandglassHost

extension RunAnalysis {
    /// Reads the events one by one into the analysis's parts.
    struct Builder {
        let epoch: Double
        var processes: [Process] = []
        var activations: [Activation] = []
        var downloads: [Download] = []
        var kills: [Kill] = []
        var relaunches: [Relaunch] = []
        var widgets: [String: Widget] = [:]
        var widgetOrder: [String] = []
        var ledger: [LedgerRow] = []
        var verdicts: [Verdict] = []
        var otherCounts: [String: Int] = [:]
        var otherFirst: [String: HostEvent] = [:]
        var otherOrder: [String] = []
        var bundleOrder: [String] = []
        private var bundleSeen: Set<String> = []
        private var processByPid: [Int32: Int] = [:]
        private var activatedProcesses: Set<Int> = []
        private var openActivations: [String: Int] = [:]
        private var openDownloads: [String: Int] = [:]
        /// Downloads that ended and whose events no extension was given yet, by bundle and session.
        private var undelivered: [String: [Int]] = [:]
        private var lastT: Double = 0
        /// The reason of each extension's latest kill.
        private var lastKill: [String: String] = [:]

        /// Events the sections show; any other name is counted under "other events".
        static let shown: Set<String> = [
            "run.start", "run.end", "installed", "spawned", "hello", "widget.added", "activation.start", "activation.end",
            "killed", "exited", "timeline", "download.started", "download.progress", "download.retry", "download.finished",
            "download.failed", "task.created", "task.cancelled", "invariant.violated", "update.result", "update.misuse",
            "protocol.violation", "sandbox.denied", "spawn.failed", "host.error", "host.warning", "extension.failedPermanently",
            "events.declined", "mainThread.blocked", "extension.error", "events.finished.unexpected"
        ]

        /// Kills that are part of a normal life: the host's own decisions, not the extension's fault.
        static let ordinaryKills: Set<String> = ["idle", "hostShutdown", "chaos"]

        init(epoch: Double) {
            self.epoch = epoch
        }

        mutating func add(_ e: HostEvent) {
            lastT = max(lastT, e.t)
            if let bundle = e.bundle, !bundleSeen.contains(bundle), e.kind != .installed {
                bundleSeen.insert(bundle)
                bundleOrder.append(bundle)
            }
            if e.name.hasPrefix("reload.") {
                addLedger(e)
                // A reload cut short by an ordinary kill (shutdown, idle, chaos) is no finding.
                let ordinary = e.string("outcome") == "killed" && lastKill[e.bundle ?? "?"].map(Self.ordinaryKills.contains) == true
                if e.kind == .reloadFailed && !ordinary {
                    verdict(
                        e, .warning, "reload produced no timeline",
                        "\(e.string("kind") ?? "?"): \(e.string("outcome") ?? "?")"
                            + (e["keptTimeline"] == .bool(true) ? "; the last good timeline stays" : ""))
                }
                return
            }
            switch e.kind {
            case .spawned:
                guard let pid = e.pid else { break }
                processByPid[pid] = processes.count
                processes.append(Process(pid: pid, bundle: e.bundle ?? "?", launch: Int(e.int("launch") ?? 0), spawnedAt: e.t))
            case .exited:
                guard let index = process(e) else { break }
                processes[index].exitedAt = e.t
                processes[index].exit = e.string("signal") ?? e.int("status").map { "status \($0)" }
                processes[index].cpuMs = e.int("cpuMs")
                processes[index].peakRSSKiB = e.int("peakRSSKiB")
                if processes[index].killReason == nil, let reason = e.string("reason") { processes[index].killReason = reason }
            case .killed:
                let reason = e.string("reason") ?? "?"
                kills.append(Kill(t: e.t, pid: e.pid, bundle: e.bundle ?? "?", reason: reason, detail: e.string("detail")))
                lastKill[e.bundle ?? "?"] = reason
                if let index = process(e) {
                    processes[index].killReason = reason
                    processes[index].killDetail = e.string("detail")
                    processes[index].killedAt = e.t
                }
                if !Self.ordinaryKills.contains(reason) {
                    verdict(e, .warning, "killed: \(reason)", e.string("detail") ?? "")
                }
            case .activationStart:
                startActivation(e)
            case .activationEnd:
                endActivation(e)
            case .downloadStarted:
                let key = downloadKey(e)
                if let index = openDownloads[key] {
                    downloads[index].attempts = Int(e.int("attempt") ?? Int64(downloads[index].attempts))
                } else {
                    openDownloads[key] = downloads.count
                    downloads.append(
                        Download(
                            bundle: e.bundle ?? "?", session: e.string("session") ?? "", taskId: e.int("taskId") ?? 0,
                            start: e.t, attempts: Int(e.int("attempt") ?? 1)))
                }
            case .downloadRetry:
                if let index = openDownloads[downloadKey(e)] {
                    let attempt = Int(e.int("attempt") ?? 1)
                    downloads[index].attempts = attempt < .max ? attempt + 1 : attempt
                }
            case .downloadFinished, .downloadFailed:
                let index =
                    openDownloads.removeValue(forKey: downloadKey(e))
                    ?? {
                        downloads.append(
                            Download(bundle: e.bundle ?? "?", session: e.string("session") ?? "", taskId: e.int("taskId") ?? 0, start: e.t))
                        return downloads.count - 1
                    }()
                downloads[index].end = e.t
                downloads[index].result = e.kind == .downloadFinished ? "finished" : "failed"
                downloads[index].status = e.int("status")
                downloads[index].bytes = e.int("bytes")
                downloads[index].error = e.string("error")
                if let attempts = e.int("attempts") { downloads[index].attempts = Int(attempts) }
                undelivered["\(downloads[index].bundle)\n\(downloads[index].session)", default: []].append(index)
                if e.kind == .downloadFailed {
                    verdict(
                        e, .warning, "download failed",
                        "task #\(e.int("taskId") ?? 0) of session \(e.string("session") ?? "?"): \(e.string("error") ?? "?")")
                }
            case .taskCancelled:
                if e["inline"] != .bool(true), let index = openDownloads.removeValue(forKey: downloadKey(e)) {
                    downloads[index].end = e.t
                    downloads[index].result = "cancelled"
                }
            case .runStart:
                // A layer the run went without: what its extensions could do that the sandbox's
                // table says they cannot.
                for gap in RunLog.sandbox(in: e) where SandboxGap.isGap(gap.state) {
                    verdict(e, .warning, "sandbox: \(gap.layer) \(gap.state == "off" ? "off" : "unavailable")", gap.state)
                }
            case .widgetAdded:
                _ = widget(e)
            case .timeline:
                let key = widget(e)
                widgets[key]!.timelines.append(timeline(e))
            case .invariantViolated:
                verdict(e, .failure, e.string("invariant") ?? "invariant violated", e.string("detail") ?? describe(e))
            case .updateResult:
                let v = e.string("verdict") ?? "?"
                guard v != "completed" else { break }
                let severity: Verdict.Severity = ["extensionReportedFailure", "extensionDied"].contains(v) ? .warning : .failure
                verdict(e, severity, "update: \(v)", e.string("detail") ?? "result \(e.string("result") ?? "?")")
            case .updateMisuse:
                verdict(e, .failure, "update misuse: \(e.string("misuse") ?? "?")", e.string("detail") ?? "")
            case .protocolViolation:
                verdict(e, .failure, "protocol violation", e.string("error") ?? "")
            case .sandboxDenied:
                verdict(e, .warning, "sandbox denied \(e.string("call") ?? e.string("syscall") ?? "a call")", e.string("error") ?? "")
            case .spawnFailed:
                verdict(e, .failure, "spawn failed", e.string("error") ?? "")
            case .hostError:
                verdict(e, .failure, "host error", e.string("error") ?? describe(e))
            case .extensionFailedPermanently:
                verdict(e, .failure, "failed permanently", e.string("detail") ?? describe(e))
            case .hostWarning:
                verdict(e, .warning, "host warning", e.string("warning") ?? describe(e))
            case .eventsDeclined, .eventsFinishedUnexpected, .mainThreadBlocked, .extensionError:
                verdict(e, .warning, e.name, e.string("detail") ?? e.string("message") ?? describe(e))
            default:
                break
            }
            if !Self.shown.contains(e.name) {
                if otherCounts[e.name] == nil {
                    otherOrder.append(e.name)
                    otherFirst[e.name] = e
                }
                otherCounts[e.name, default: 0] += 1
            }
        }

        /// Places overlapping activations and downloads on separate rows.
        mutating func finish() {
            var byProcess: [Int32: [Int]] = [:]
            for (index, activation) in activations.enumerated() { byProcess[activation.pid, default: []].append(index) }
            for indices in byProcess.values {
                var laneEnds: [Double] = []
                for index in indices {
                    let start = activations[index].start
                    let lane = laneEnds.firstIndex { $0 <= start } ?? laneEnds.count
                    if lane == laneEnds.count { laneEnds.append(0) }
                    laneEnds[lane] = activations[index].end ?? lastT
                    activations[index].lane = lane
                }
            }
            var byBundle: [String: [Int]] = [:]
            for (index, download) in downloads.enumerated() { byBundle[download.bundle, default: []].append(index) }
            for indices in byBundle.values {
                var laneEnds: [Double] = []
                for index in indices.sorted(by: { downloads[$0].start < downloads[$1].start }) {
                    let start = downloads[index].start
                    let lane = laneEnds.firstIndex { $0 <= start } ?? laneEnds.count
                    if lane == laneEnds.count { laneEnds.append(0) }
                    laneEnds[lane] = downloads[index].end ?? lastT
                    downloads[index].lane = lane
                }
            }
        }

        // MARK: parts

        private func process(_ e: HostEvent) -> Int? {
            e.pid.flatMap { processByPid[$0] }
        }

        private mutating func startActivation(_ e: HostEvent) {
            guard let pid = e.pid else { return }
            let id = e.int("activation") ?? 0
            openActivations["\(pid)/\(id)"] = activations.count
            activations.append(
                Activation(
                    id: id, pid: pid, bundle: e.bundle ?? "?", kind: e.string("kind") ?? "?",
                    widget: e.string("widget"), family: e.string("family"), session: e.string("session"),
                    start: e.t))
            guard let processIndex = process(e) else { return }
            let first = activatedProcesses.insert(processIndex).inserted
            if e.string("kind") == "backgroundEvents", let session = e.string("session") {
                let key = "\(e.bundle ?? "?")\n\(session)"
                if first { processes[processIndex].relaunchSession = session }
                for download in undelivered.removeValue(forKey: key) ?? [] {
                    downloads[download].deliveredTo = pid
                    relaunches.append(Relaunch(download: download, process: processIndex, at: e.t, spawned: first))
                }
            }
        }

        private mutating func endActivation(_ e: HostEvent) {
            guard let pid = e.pid else { return }
            let key = "\(pid)/\(e.int("activation") ?? 0)"
            let index =
                openActivations.removeValue(forKey: key)
                ?? {
                    // The log began after the activation did: it is shown as ending only.
                    activations.append(
                        Activation(
                            id: e.int("activation") ?? 0, pid: pid, bundle: e.bundle ?? "?", kind: e.string("kind") ?? "?",
                            widget: e.string("widget"), family: e.string("family"), session: e.string("session"),
                            start: e.t - (e.double("ms") ?? 0)))
                    return activations.count - 1
                }()
            activations[index].end = e.t
            activations[index].outcome = e.string("outcome")
            activations[index].reason = e.string("reason")
            activations[index].error = e.string("error")
            activations[index].ms = e.double("ms")
            if e.string("outcome") == "failed" {
                verdict(e, .warning, "\(activations[index].kind) failed", e.string("error") ?? "")
            }
            if activations[index].kind == "placeholder", let entry = e["entry"], let view = entry["view"],
                let kind = activations[index].widget, let family = activations[index].family
            {
                let key = "\(activations[index].bundle)\n\(kind)\n\(family)"
                if widgets[key] == nil {
                    widgets[key] = Widget(bundle: activations[index].bundle, kind: kind, family: family)
                    widgetOrder.append(key)
                }
                let seconds = entry["date"]?.doubleValue
                widgets[key]!.placeholder = Entry(
                    date: seconds.map(iso8601), t: seconds.map { ($0 - epoch) * 1000 },
                    text: entry["text"]?.stringValue, json: entry["entry"]?.serialized ?? "{}", viewJSON: view)
            }
        }

        private func downloadKey(_ e: HostEvent) -> String {
            "\(e.bundle ?? "?")\n\(e.string("session") ?? "")\n\(e.int("taskId") ?? 0)"
        }

        private mutating func widget(_ e: HostEvent) -> String {
            let bundle = e.bundle ?? "?", kind = e.string("kind") ?? "?", family = e.string("family") ?? "?"
            let key = "\(bundle)\n\(kind)\n\(family)"
            if widgets[key] == nil {
                widgets[key] = Widget(bundle: bundle, kind: kind, family: family)
                widgetOrder.append(key)
            }
            return key
        }

        private func timeline(_ e: HostEvent) -> Timeline {
            var entries: [Entry] = []
            let jsons: [JSONValue] = {
                if case .array(let a)? = e["entries"] { return a }; return []
            }()
            let dates: [JSONValue] = {
                if case .array(let a)? = e["entryDates"] { return a }; return []
            }()
            let texts: [JSONValue] = {
                if case .array(let a)? = e["texts"] { return a }; return []
            }()
            let views: [JSONValue] = {
                if case .array(let a)? = e["views"] { return a }; return []
            }()
            for (i, json) in jsons.enumerated() {
                let date = i < dates.count ? dates[i].stringValue : nil
                let t = date.flatMap(ISO8601Instant.seconds).map { ($0 - epoch) * 1000 }
                let view = i < views.count && views[i] != .null ? views[i] : nil
                entries.append(
                    Entry(date: date, t: t, text: i < texts.count ? texts[i].stringValue : nil, json: json.serialized, viewJSON: view))
            }
            return Timeline(t: e.t, policy: e.string("policy") ?? "?", nextReloadDate: e.string("nextReloadDate"), entries: entries)
        }

        private mutating func addLedger(_ e: HostEvent) {
            ledger.append(
                LedgerRow(
                    t: e.t, decision: String(e.name.dropFirst("reload.".count)), bundle: e.bundle ?? "?",
                    kind: e.string("kind") ?? "?", family: e.string("family"),
                    reason: e.string("reason") ?? e.string("outcome"),
                    detail: e.string("detail") ?? ledgerDetail(e)))
        }

        /// The fields a ledger line has beyond the usual ones (`used`, `limit`, `untilDate`, …).
        private func ledgerDetail(_ e: HostEvent) -> String? {
            let usual: Set<String> = ["bundle", "kind", "family", "reason", "outcome", "pid"]
            let rest = e.fields.filter { !usual.contains($0.0) }
            return rest.isEmpty ? nil : rest.map { "\($0.0) \($0.1.stringValue ?? $0.1.serialized)" }.joined(separator: " · ")
        }

        private mutating func verdict(_ e: HostEvent, _ severity: Verdict.Severity, _ title: String, _ detail: String) {
            verdicts.append(Verdict(t: e.t, severity: severity, event: e.name, title: title, bundle: e.bundle, detail: detail))
        }

        /// The fields of an event as `key value` pairs, for events without a `detail`.
        private func describe(_ e: HostEvent) -> String {
            e.fields.map { "\($0.0) \($0.1.stringValue ?? $0.1.serialized)" }.joined(separator: " · ")
        }
    }
}
