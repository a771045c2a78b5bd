import Foundation
import SandglassHost

extension HTMLReport {
    /// The lifecycle chart of one run: a row per extension with its processes (activations on
    /// them, kills marked with their reason), a row of its downloads below, and the relaunches
    /// by identifier drawn from the download to the process that was given its events.
    func gantt(_ analysis: RunAnalysis, runIndex: Int, _ page: inout HTMLPage) {
        page.raw("<h3>Lifecycle</h3>")
        guard !analysis.processes.isEmpty || !analysis.downloads.isEmpty else {
            page.raw("<p class=\"note\">No extension process was spawned in this run.</p>")
            return
        }
        let axis = TimeAxis(duration: analysis.run.durationMs)
        let f = HTMLText.coordinate
        let e = HTMLText.escapeVisibly
        var body = HTMLPage()
        var y = 26.0
        var processY: [Int: Double] = [:] // process index → centre of its row
        var downloadY: [Int: Double] = [:] // download index → centre of its bar
        var drawnBars = 0
        let activationsByPid = Dictionary(grouping: analysis.activations.indices, by: { analysis.activations[$0].pid })
        let relaunchRel = Dictionary(grouping: analysis.relaunches.indices, by: { analysis.relaunches[$0].process })

        for bundle in analysis.bundles {
            let processes = analysis.processes.indices.filter { analysis.processes[$0].bundle == bundle }
            let downloads = analysis.downloads.indices.filter { analysis.downloads[$0].bundle == bundle }
            guard !processes.isEmpty || !downloads.isEmpty else { continue }
            let lanes = max(
                1,
                processes.flatMap { activationsByPid[analysis.processes[$0].pid] ?? [] }
                    .map { analysis.activations[$0].lane + 1 }.max() ?? 1)
            let rowHeight = 8 + Double(lanes) * 12
            body.raw("<g class=\"row\"><rect class=\"band\" x=\"0\" y=\"\(f(y))\" width=\"\(f(axis.width))\" height=\"\(f(rowHeight))\"/>")
            body.raw(
                "<text class=\"label\" x=\"6\" y=\"\(f(y + rowHeight / 2 + 4))\">\(e(HTMLText.clip(bundle, 34)))<title>\(e(bundle))</title></text>"
            )
            for index in processes {
                let p = analysis.processes[index]
                processY[index] = y + rowHeight / 2
                let end = p.exitedAt ?? analysis.run.durationMs
                let rel = (relaunchRel[index] ?? []).map { "r\(runIndex)-\(analysis.relaunches[$0].download)" }.joined(separator: " ")
                let classes = "proc" + (p.relaunchSession != nil ? " relaunched" : "") + (p.exitedAt == nil ? " open" : "")
                body.raw(
                    "<rect class=\"\(classes)\" data-t0=\"\(p.spawnedAt)\" data-t1=\"\(end)\"\(rel.isEmpty ? "" : " data-rel=\"\(rel)\"")")
                body.raw(
                    " x=\"\(f(axis.x(p.spawnedAt)))\" y=\"\(f(y + 2))\" width=\"\(f(axis.width(p.spawnedAt, end)))\" height=\"\(f(rowHeight - 4))\" rx=\"3\">"
                )
                body.raw("<title>\(e(processTitle(p)))</title></rect>")
                for a in activationsByPid[p.pid] ?? [] where drawnBars < limits.bars {
                    let activation = analysis.activations[a]
                    drawnBars += 1
                    let t1 = activation.end ?? end
                    let classes = "act k-\(Self.cssName(activation.kind)) o-\(Self.cssName(activation.outcome ?? "open"))"
                    body.raw(
                        "<rect class=\"\(classes)\" data-t0=\"\(activation.start)\" data-t1=\"\(t1)\" x=\"\(f(axis.x(activation.start)))\"")
                    body.raw(
                        " y=\"\(f(y + 5 + Double(activation.lane) * 12))\" width=\"\(f(axis.width(activation.start, t1)))\" height=\"10\">")
                    let title = Self.at(activation.start) + "  " + activation.summary
                    body.raw("<title>\(e(title))</title></rect>")
                }
                if p.relaunchSession != nil {
                    let cy = y + rowHeight / 2
                    body.raw(
                        "<g class=\"mark relaunch\" data-t=\"\(p.spawnedAt)\" data-y=\"\(f(cy))\" transform=\"translate(\(f(axis.x(p.spawnedAt))),\(f(cy)))\""
                    )
                    body.raw(
                        "\(rel.isEmpty ? "" : " data-rel=\"\(rel)\"")><circle r=\"4\"/><title>\(e("relaunched by identifier for session \(p.relaunchSession!) · pid \(p.pid)"))</title></g>"
                    )
                }
            }
            for kill in analysis.kills where kill.bundle == bundle {
                let cy = y + rowHeight / 2
                body.raw(
                    "<g class=\"mark kill r-\(Self.cssName(kill.reason))\" data-t=\"\(kill.t)\" data-y=\"\(f(cy))\" transform=\"translate(\(f(axis.x(kill.t))),\(f(cy)))\">"
                )
                body.raw(
                    "<path d=\"M-4,-4L4,4M-4,4L4,-4\"/><title>\(e("✗ killed pid \(kill.pid.map(String.init) ?? "?") at \(Self.at(kill.t)) — \(kill.reason)" + (kill.detail.map { ": \($0)" } ?? "")))</title></g>"
                )
            }
            body.raw("</g>")
            y += rowHeight + 2
            if !downloads.isEmpty {
                let dlLanes = (downloads.map { analysis.downloads[$0].lane }.max() ?? 0) + 1
                let dlHeight = 6 + Double(dlLanes) * 9
                body.raw("<g class=\"row dlrow\"><text class=\"label sublabel\" x=\"18\" y=\"\(f(y + dlHeight / 2 + 4))\">downloads</text>")
                for index in downloads {
                    let d = analysis.downloads[index]
                    let end = d.end ?? analysis.run.durationMs
                    let barY = y + 3 + Double(d.lane) * 9
                    downloadY[index] = barY + 3.5
                    body.raw(
                        "<rect class=\"dl res-\(d.result ?? "open")\" data-rel=\"r\(runIndex)-\(index)\" data-t0=\"\(d.start)\" data-t1=\"\(end)\""
                    )
                    body.raw(
                        " x=\"\(f(axis.x(d.start)))\" y=\"\(f(barY))\" width=\"\(f(axis.width(d.start, end)))\" height=\"7\"><title>\(e(downloadTitle(d)))</title></rect>"
                    )
                }
                body.raw("</g>")
                y += dlHeight + 2
            }
            y += 4
        }
        for relaunch in analysis.relaunches {
            guard let y0 = downloadY[relaunch.download], let y1 = processY[relaunch.process],
                let t0 = analysis.downloads[relaunch.download].end
            else { continue }
            let d = analysis.downloads[relaunch.download], p = analysis.processes[relaunch.process]
            let title =
                "download of task #\(d.taskId) (session \(d.session)) \(d.result ?? "ended") → "
                + (relaunch.spawned ? "relaunched \(p.bundle) as pid \(p.pid)" : "events given to the running pid \(p.pid)")
                + " at \(Self.at(relaunch.at))"
            body.raw(
                "<path class=\"link\" data-rel=\"r\(runIndex)-\(relaunch.download)\" data-t0=\"\(t0)\" data-y0=\"\(f(y0))\" data-t1=\"\(relaunch.at)\" data-y1=\"\(f(y1))\""
            )
            body.raw(" d=\"\(Self.linkPath(axis.x(t0), y0, axis.x(relaunch.at), y1))\"><title>\(e(title))</title></path>")
        }
        let height = y + 4
        page.raw(
            "<div class=\"chart\"><svg class=\"timeaxis gantt\" data-duration=\"\(axis.duration)\" width=\"\(f(axis.width))\" height=\"\(f(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        )
        ticks(axis, height: height, &page)
        page.raw(body.text)
        page.raw("</svg></div>")
        if drawnBars < analysis.activations.count {
            page.raw("<p class=\"note\">The chart shows the first \(drawnBars) of \(analysis.activations.count) activations.</p>")
        }
        legend(analysis, &page)
    }

    /// Vertical grid lines and their labels along the top.
    func ticks(_ axis: TimeAxis, height: Double, _ page: inout HTMLPage) {
        let f = HTMLText.coordinate
        page.raw("<g class=\"axis\">")
        for t in axis.ticks {
            page.raw("<line data-t=\"\(t)\" x1=\"\(f(axis.x(t)))\" x2=\"\(f(axis.x(t)))\" y1=\"16\" y2=\"\(f(height))\"/>")
            page.raw("<text data-t=\"\(t)\" x=\"\(f(axis.x(t)))\" y=\"12\">\(TimeAxis.label(t))</text>")
        }
        page.raw("</g>")
    }

    private func legend(_ analysis: RunAnalysis, _ page: inout HTMLPage) {
        let kinds = Set(analysis.activations.map(\.kind)).sorted()
        let reasons = Set(analysis.kills.map(\.reason)).sorted()
        page.raw("<p class=\"legend\">")
        for kind in kinds { page.raw("<span><i class=\"sw k-\(Self.cssName(kind))\"></i>\(HTMLText.escapeVisibly(kind))</span>") }
        page.raw("<span><i class=\"sw o-killed\"></i>activation killed</span><span><i class=\"sw o-failed\"></i>activation failed</span>")
        for reason in reasons {
            page.raw("<span><b class=\"x r-\(Self.cssName(reason))\">✗</b>killed: \(HTMLText.escapeVisibly(reason))</span>")
        }
        if !analysis.downloads.isEmpty {
            page.raw(
                "<span><i class=\"sw dl\"></i>download</span><span><b class=\"relaunch-key\">●</b>relaunch by identifier (hover: its download)</span>"
            )
        }
        page.raw("</p>")
    }

    private func processTitle(_ p: RunAnalysis.Process) -> String {
        var text = "\(p.bundle) · pid \(p.pid) · launch #\(p.launch) · spawned at \(Self.at(p.spawnedAt))"
        if let session = p.relaunchSession { text += " — relaunched for the events of session \(session)" }
        if let exited = p.exitedAt {
            text += "\nended at \(Self.at(exited)) (\(p.exit ?? "?")) after \(RunAnalysis.formatMs(exited - p.spawnedAt))"
        } else {
            text += "\nstill running when the log ends"
        }
        if let reason = p.killReason { text += "\nkilled: \(reason)" + (p.killDetail.map { " — \($0)" } ?? "") }
        if let cpu = p.cpuMs { text += "\ncpu \(cpu) ms" }
        if let rss = p.peakRSSKiB { text += " · peak RSS " + String(format: "%.1f MiB", Double(rss) / 1024) }
        return text
    }

    private func downloadTitle(_ d: RunAnalysis.Download) -> String {
        var text = "task #\(d.taskId) of session \(d.session) · \(d.result ?? "still running when the log ends")"
        if let status = d.status { text += " · HTTP \(status)" }
        if let bytes = d.bytes { text += " · \(bytes) bytes" }
        if d.attempts > 1 { text += " · \(d.attempts) attempts" }
        if let error = d.error { text += " · \(error)" }
        if let end = d.end { text += " · \(RunAnalysis.formatMs(end - d.start))" }
        if let pid = d.deliveredTo { text += "\nevents given to pid \(pid)" }
        return text
    }

    /// A curve from a download's end to the relaunched process.
    static func linkPath(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> String {
        let f = HTMLText.coordinate
        let bend = max(12, abs(y1 - y0) / 2)
        return "M\(f(x0)),\(f(y0))C\(f(x0 + bend)),\(f(y0)) \(f(x1 - bend)),\(f(y1)) \(f(x1)),\(f(y1))"
    }

    /// `12.345s` (or `2d 03:04:05`): a run time as the trace shows it.
    static func at(_ t: Double) -> String {
        TraceRenderer.stamp(t).trimmingCharacters(in: .whitespaces)
    }

    /// A name safe in a CSS class: letters, digits and dashes.
    static func cssName(_ text: String) -> String {
        String(text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" })
    }
}
