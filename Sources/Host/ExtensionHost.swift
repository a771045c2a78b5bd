import Foundation
import SandglassIPC
import Synchronization

/// A Sandglass host: the system side of widget extensions, as a library.
///
/// ```swift
/// let host = try await ExtensionHost(.temporary())
/// try await host.install("Leaderboard.app")
/// await host.start()
/// let timeline = try await host.waitForEvent(timeout: .seconds(10)) { $0.kind == .timeline }
/// let summary = await host.shutdown()
/// ```
///
/// Every extension runs as its own sandboxed process; kills are SIGKILLs; the events are the
/// run's event log (see <doc:EventLog>).
public final class ExtensionHost: Sendable {
    let core: HostCore
    private let loop: EventLoop
    /// The configuration the host was made with.
    public let configuration: HostConfiguration
    /// The app groups of the installed apps (``appGroup(_:app:)``).
    let installedAppGroups = Mutex<[AppGroup]>([])
    /// The supervisor's deadline thread, read off the loop by the measurements.
    let killer: DeadlineKiller?

    /// Starts a host: its event loop thread, sandbox, clock and event log.
    public init(_ configuration: HostConfiguration) async throws {
        self.configuration = configuration
        loop = try EventLoop(name: "sandglass-host")
        core = HostCore(loop: loop)
        do {
            try await core.setUp(configuration)
        } catch {
            loop.shutdown()
            throw error
        }
        killer = await core.deadlineKiller()
    }

    /// Validates and installs the app bundle at `path` (refused with the file and key named when malformed).
    @discardableResult
    public func install(_ path: String) async throws -> AppBundle {
        let app = try await core.install(path)
        let groups = await core.appGroups(of: app.bundleIdentifier)
        installedAppGroups.withLock { $0 += groups }
        return app
    }

    /// Launches the widget extensions and puts one widget of each kind on the screen.
    public func start() async {
        await core.start()
    }

    /// Lets the system run for `duration` on the run clock.
    public func run(for duration: Duration) async {
        await core.run(for: duration)
    }

    /// Runs one activation of extension `bundleIdentifier` now and returns its outcome
    /// (`nil` when no such extension is installed).
    public func activate(
        _ bundleIdentifier: String, _ kind: ActivationKind, widget: String? = nil,
        family: String = "systemSmall", isPreview: Bool = false
    ) async -> ActivationOutcome? {
        let size = WidgetFamilies.size(of: family)
        let context = widget.map {
            ActivationContext(kind: $0, family: family, isPreview: isPreview, displayWidth: size.width, displayHeight: size.height)
        }
        return await core.activate(bundleIdentifier, kind, context: context)
    }

    /// Changes the location state or the widgets' visibility now, as a scenario's timed change
    /// does (its `at` is ignored): `scenario.change`, then `location.authorization` (and a new
    /// authorization sent to every live extension), `location.moved`, or `widgets.visible`/`hidden`.
    public func apply(_ change: ScenarioChange) async {
        await core.apply(change, cause: "api")
    }

    /// Kills the extension's live process (SIGKILL) with `reason`.
    public func kill(_ bundleIdentifier: String, reason: KillReason = .chaos) async {
        await core.kill(bundleIdentifier, reason: reason)
    }

    /// SIGKILLs the extension of the first event matching `predicate`, when that event is
    /// recorded — a kill at an exact step of the protocol (after `event.delivered`, before
    /// `events.finished`, …).
    ///
    /// ```swift
    /// await host.killWhen { $0.kind == .eventDelivered }
    /// ```
    public func killWhen(reason: KillReason = .chaos, _ predicate: @escaping @Sendable (HostEvent) -> Bool) async {
        await core.armKill(reason: reason, where: predicate)
    }

    /// Session events in the journal not yet acknowledged by an extension.
    public func unacknowledgedEvents() async -> Int {
        await core.unacknowledgedEvents()
    }

    /// Pids of the live extension processes, by bundle identifier.
    public func liveProcesses() async -> [String: Int32] {
        await core.liveProcesses()
    }

    /// Every event so far.
    public func events() async -> [HostEvent] {
        await core.history()
    }

    /// The events from now on (with `replay`, from the start of the run).
    public func eventStream(replay: Bool = true) async -> AsyncStream<HostEvent> {
        await core.subscribe(replay: replay)
    }

    /// The first event (since the run started) that satisfies `predicate`, waiting up to `timeout`
    /// of real time for it.
    public func waitForEvent(timeout: Duration, where predicate: @escaping @Sendable (HostEvent) -> Bool) async throws -> HostEvent {
        let stream = await core.subscribe(replay: true)
        return try await withThrowingTaskGroup(of: HostEvent?.self) { group in
            group.addTask {
                for await event in stream where predicate(event) { return event }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            if let first = try await group.next(), let event = first { return event }
            throw HostError.timedOut(timeout)
        }
    }

    /// Stops the run: kills the extensions (`hostShutdown`), reaps them, writes `run.end` and
    /// closes the log. The events stay readable; the loop thread ends with the host.
    @discardableResult
    public func shutdown() async -> RunSummary {
        await core.shutdown()
    }

    deinit {
        // Stop the loop before the host's parts go: no timer may fire into them afterwards.
        if loop.inLoop { loop.stop() } else { loop.shutdown() }
    }
}

/// Errors of the host API.
public enum HostError: Error, CustomStringConvertible {
    /// `waitForEvent` saw no matching event in time.
    case timedOut(Duration)

    public var description: String {
        switch self {
        case .timedOut(let d): "no matching event within \(d)"
        }
    }
}
