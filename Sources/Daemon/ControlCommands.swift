import Foundation
import SandglassHost

/// Carries out control requests on a running host: what each `sandglass ctl` command does.
public struct ControlCommands: Sendable {
    let host: ExtensionHost
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
        case "visibility", "location", "clock":
            // The host's API for these arrives with issues 4 (visibility, location) and 5 (the
            // virtual clock's advance); until it is in this build the daemon says so.
            return ControlResponse(ok: false, message: "\(request.command) is not supported by this host yet: its API (\(Self.pendingAPI[request.command]!)) is not in this build")
        default:
            return ControlResponse(ok: false, message: "unknown command \(request.command.debugDescription): use status, reload, kill, visibility, location or clock")
        }
    }

    static let pendingAPI = [
        "visibility": "ExtensionHost.setVisibility, issue 4/5",
        "location": "ExtensionHost.apply(ScenarioChange), issue 4",
        "clock": "ExtensionHost.advance(by:), issue 5",
    ]

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
        return ControlResponse(ok: true, message: "\(extensions.count) extensions installed, \(running) running · \(counts.events) events", status: status)
    }

    private func reload(_ request: ControlRequest) async -> ControlResponse {
        guard let asked = await host.requestTimelineReload(kind: request.kind, bundle: request.bundle) else {
            return ControlResponse(ok: false, message: "no extension \(request.bundle ?? "?") is installed; installed: \(await host.installedExtensions().joined(separator: ", "))")
        }
        let what = request.kind.map { "widgets of kind \($0)" } ?? "widgets"
        if asked == 0 {
            return ControlResponse(ok: false, message: "no \(what) on screen\(request.bundle.map { " for \($0)" } ?? "") (reload.denied recorded)")
        }
        return ControlResponse(ok: true, message: "asked \(asked) \(asked == 1 ? "widget" : "widgets") for a new timeline")
    }

    private func kill(_ request: ControlRequest) async -> ControlResponse {
        guard let bundle = request.bundle else {
            return ControlResponse(ok: false, message: "kill needs the extension's bundle identifier")
        }
        let reasonName = request.reason ?? KillReason.chaos.rawValue
        guard let reason = KillReason(rawValue: reasonName) else {
            return ControlResponse(ok: false, message: "unknown kill reason \(reasonName.debugDescription): one of \(KillReason.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard await host.installedExtensions().contains(bundle) else {
            return ControlResponse(ok: false, message: "no extension \(bundle) is installed; installed: \(await host.installedExtensions().joined(separator: ", "))")
        }
        guard let pid = await host.liveProcesses()[bundle] else {
            return ControlResponse(ok: false, message: "\(bundle) is not running: nothing to kill")
        }
        await host.kill(bundle, reason: reason)
        return ControlResponse(ok: true, message: "killed \(bundle) (pid \(pid)) with reason \(reason.rawValue)")
    }
}
