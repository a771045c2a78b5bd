import Foundation
import SandglassHost
import SandglassIPC

/// Carries out control requests on a running host: what each `sandglass ctl` command does.
public struct ControlCommands: Sendable {
    public let host: ExtensionHost
    let tally: RunTally
    let startedAt: ContinuousClock.Instant

    /// Commands for `host`, with the daemon's `tally` for `status`.
    public init(host: ExtensionHost, tally: RunTally) {
        self.host = host
        self.tally = tally
        startedAt = .now
    }

    /// The answer to `request`.
    public func respond(_ request: ControlRequest) async -> ControlResponse {
        switch request.command {
        case "status": return await status()
        case "reload": return await reload(request)
        case "kill": return await kill(request)
        case "visibility": return await visibility(request)
        case "clock": return await clock(request)
        case "location": return await location(request)
        default:
            return ControlResponse(
                ok: false,
                message: "unknown command \(request.command.debugDescription): use status, reload, kill, visibility, location or clock")
        }
    }

    private func status() async -> ControlResponse {
        let counts = tally.snapshot
        let live = await host.liveProcesses()
        let installed = await host.installedExtensions()
        let extensions = installed.map {
            DaemonStatus.Extension(bundle: $0, pid: live[$0], spawns: counts.spawnsByBundle[$0] ?? 0, kills: counts.killsByBundle[$0] ?? 0)
        }
        let uptime = ContinuousClock.now - startedAt
        let status = DaemonStatus(
            pid: getpid(), uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18,
            clock: counts.clock, runTimeMs: counts.lastT, extensions: extensions, events: counts.events,
            activations: counts.activations, kills: counts.kills, timelines: counts.timelines,
            unacknowledgedEvents: await host.unacknowledgedEvents())
        let running = extensions.filter { $0.pid != nil }.count
        return ControlResponse(
            ok: true, message: "\(extensions.count) extensions installed, \(running) running · \(counts.events) events", status: status)
    }

    private func reload(_ request: ControlRequest) async -> ControlResponse {
        if let app = request.app, !(await host.installedApps().contains(app)) {
            return ControlResponse(
                ok: false, message: "no app \(app) is installed; installed: \(await host.installedApps().joined(separator: ", "))")
        }
        let asked =
            if let kind = request.kind {
                await host.reloadTimelines(ofKind: kind, app: request.app)
            } else {
                await host.reloadAllTimelines(app: request.app)
            }
        let what = request.kind.map { "widget of kind \($0)" } ?? "widget"
        if asked == 0 {
            return ControlResponse(ok: false, message: "no \(what) is on the home screen\(request.app.map { " for \($0)" } ?? "")")
        }
        return ControlResponse(
            ok: true,
            message:
                "asked \(asked) \(asked == 1 ? "widget" : "widgets") for a new timeline (as WidgetCenter.\(request.kind == nil ? "reloadAllTimelines()" : "reloadTimelines(ofKind:)") from the app)"
        )
    }

    /// Without a kind: the screen's whole schedule (reload dates, location in-use windows, Today),
    /// as a scenario's change. With one: how often those widgets are seen, for their reloads.
    private func visibility(_ request: ControlRequest) async -> ControlResponse {
        let value = request.value ?? ""
        if let kind = request.kind {
            guard let visibility = WidgetVisibility(rawValue: value) else {
                return ControlResponse(
                    ok: false,
                    message:
                        "visibility is one of \(WidgetVisibility.allCases.map(\.rawValue).joined(separator: ", ")), not \(value.debugDescription)"
                )
            }
            await host.setVisibility(visibility, widget: kind)
            return ControlResponse(ok: true, message: "widgets of kind \(kind) now seen \(visibility.rawValue)")
        }
        guard let schedule = VisibilitySchedule(name: value) else {
            return ControlResponse(
                ok: false,
                message: "visibility is one of \(VisibilitySchedule.names.joined(separator: ", ")), not \(value.debugDescription)")
        }
        await host.apply(ScenarioChange(at: .zero, visibility: schedule, note: "sandglass ctl visibility"))
        return ControlResponse(ok: true, message: "every widget now seen \(schedule)")
    }

    /// An authorization of the containing app, the user's choice for widgets, or a position.
    private func location(_ request: ControlRequest) async -> ControlResponse {
        let value = request.value ?? ""
        let change: ScenarioChange
        let said: String
        if let authorization = LocationAuthorization(rawValue: value) {
            change = ScenarioChange(at: .zero, authorization: authorization, note: "sandglass ctl location")
            said = "the app's location authorization is now \(authorization)"
        } else if let approval = WidgetLocationApproval(rawValue: value) {
            change = ScenarioChange(at: .zero, widgetApproval: approval, note: "sandglass ctl location")
            said = "location for widgets is now \(approval)"
        } else if let point = GeoCoordinate(text: value) {
            change = ScenarioChange(at: .zero, position: .fixed(point), note: "sandglass ctl location")
            said = "the device is now at \(point)"
        } else {
            let names = LocationAuthorization.allCases.map(\.rawValue) + WidgetLocationApproval.allCases.map(\.rawValue)
            return ControlResponse(
                ok: false, message: "location takes LAT,LON or one of \(names.joined(separator: ", ")), not \(value.debugDescription)")
        }
        await host.apply(change)
        return ControlResponse(ok: true, message: said)
    }

    private func clock(_ request: ControlRequest) async -> ControlResponse {
        guard host.configuration.clock == .virtual else {
            return ControlResponse(ok: false, message: "the daemon runs on the real clock; start it with --clock virtual to advance time")
        }
        guard let text = request.value, let step = Self.duration(text) else {
            return ControlResponse(
                ok: false, message: "clock takes a duration such as 30m, 2h or 7d, not \((request.value ?? "nothing").debugDescription)")
        }
        let before = tally.snapshot.events
        let start = await host.now()
        await host.advance(by: step)
        let date = await host.now()
        // The clock goes no further than 100 years from its start: a step past it stops there.
        let moved = date.timeIntervalSince(start)
        let by = moved < Double(step.components.seconds) ? "\(Int(moved))s of \(text), as far as it goes (100 years from its start)," : text
        return ControlResponse(
            ok: true,
            message:
                "advanced the virtual clock by \(by) to \(date.formatted(.iso8601)) · \(tally.snapshot.events - before) events meanwhile")
    }

    /// `500ms`, `30s`, `10m`, `2h`, `7d`: a positive duration (``DurationText``).
    static func duration(_ text: String) -> Duration? {
        DurationText.parse(text).flatMap { $0 > .zero ? $0 : nil }
    }

    /// The kills an operator may simulate: what the system does to an extension (chaos, a
    /// jetsam-like memory kill, a budget or idle kill). Never the host's own findings
    /// (`hostShutdown`, `protocolViolation`, `resource`, `cpu`, `sessionConflict`), which the
    /// log must only carry when they happened.
    static let killReasons: [KillReason] = [.chaos, .memory, .timeBudget, .idle]

    private func kill(_ request: ControlRequest) async -> ControlResponse {
        guard let bundle = request.bundle else {
            return ControlResponse(ok: false, message: "kill needs the extension's bundle identifier")
        }
        let reasonName = request.reason ?? KillReason.chaos.rawValue
        guard let reason = KillReason(rawValue: reasonName), Self.killReasons.contains(reason) else {
            return ControlResponse(
                ok: false,
                message:
                    "\(reasonName.debugDescription) is not a kill reason the control socket may give: one of \(Self.killReasons.map(\.rawValue).joined(separator: ", ")) (the others are the host's own findings)"
            )
        }
        guard await host.installedExtensions().contains(bundle) else {
            return ControlResponse(
                ok: false,
                message: "no extension \(bundle) is installed; installed: \(await host.installedExtensions().joined(separator: ", "))")
        }
        guard let pid = await host.liveProcesses()[bundle] else {
            return ControlResponse(ok: false, message: "\(bundle) is not running: nothing to kill")
        }
        await host.kill(bundle, reason: reason)
        return ControlResponse(ok: true, message: "killed \(bundle) (pid \(pid)) with reason \(reason.rawValue)")
    }
}
