import Foundation
import Glibc
import SandglassHost
import Synchronization

/// Runs the chaos of one host's epoch of a ``StressPlan``: each iteration's ``ChaosAction``
/// against a live ``ExtensionHost``, every wait bounded by a real-time deadline (a step that
/// passes it is recorded as `stress.stall`, a violation of ``Invariant/progress``).
///
/// `sandglass stress-worker` runs one of these per host process; the conductor
/// (`sandglass stress`) kills and restarts those processes.
public final class ChaosRunner: Sendable {
    /// A widget extension chaos is aimed at, and its kinds.
    public struct Target: Sendable, Hashable {
        public let bundle: String
        public let kinds: [String]
    }

    /// A chaos step did not finish within its deadline.
    public struct Stall: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let host: ExtensionHost
    public let plan: StressPlan
    public let targets: [Target]
    /// Real time one action may take before it counts as a stall.
    public let deadline: Duration
    private let kills = KillCounter()
    private let counter: Task<Void, Never>
    private let originalLimits: [String: Int]
    /// How long (real time) a host armed to die at a step waits for it before dying anyway.
    static let hostStepWait: Duration = .seconds(8)

    /// Prepares chaos against `host` (installed and started): waits (up to `deadline`) for each
    /// widget extension's hello to learn its kinds.
    public init(host: ExtensionHost, plan: StressPlan, bundles: [String], deadline: Duration = .seconds(60)) async throws {
        self.host = host
        self.plan = plan
        self.deadline = deadline
        var targets: [Target] = []
        for bundle in bundles.sorted() {
            guard let hello = try? await host.waitForEvent(timeout: .seconds(10), where: { $0.kind == .hello && $0.bundle == bundle }),
                case .array(let kinds)? = hello["kinds"], !kinds.isEmpty
            else { continue }
            targets.append(Target(bundle: bundle, kinds: kinds.compactMap(\.stringValue)))
        }
        guard !targets.isEmpty else {
            throw Stall(description: "no widget extension said hello with a widget kind; nothing to run chaos against")
        }
        self.targets = targets
        var limits: [String: Int] = [:]
        for event in await host.events() where event.kind == .spawned {
            if let bundle = event.bundle, limits[bundle] == nil, let bytes = event.int("memoryLimitBytes") { limits[bundle] = Int(bytes) }
        }
        originalLimits = limits
        let stream = await host.eventStream(replay: true)
        let kills = self.kills
        counter = Task {
            for await event in stream where event.kind == .killed { kills.add() }
        }
    }

    deinit { counter.cancel() }

    /// Extensions killed so far in this host (every reason).
    public var killCount: Int { kills.value }

    private func target(_ index: Int) -> Target { targets[index % targets.count] }

    /// Runs iteration `iteration` of the plan.
    public func run(iteration: Int) async throws {
        let action = plan.action(iteration)
        try await bounded("iteration \(iteration) (\(action))") { [self] in
            await perform(action, iteration: iteration)
        }
    }

    private func perform(_ action: ChaosAction, iteration: Int) async {
        switch action {
        case .killAtStep(let step, let index):
            await killAtStep(step, target: index.map(target))
        case .killDuring(let kind, let microseconds, let index):
            let target = target(index)
            let activation = Task { await self.activate(target, kind) }
            try? await Task.sleep(for: .microseconds(microseconds))
            await host.kill(target.bundle, reason: .chaos)
            _ = await activation.value
        case .suspend(let milliseconds, let index):
            let target = target(index)
            if await host.liveProcesses()[target.bundle] == nil { _ = await activate(target, .placeholder) }
            guard let pid = await host.suspend(target.bundle) else { return }
            let activation = Task { await self.activate(target, .timeline) }
            try? await Task.sleep(for: .milliseconds(milliseconds))
            await host.resume(target.bundle, pid: pid)
            _ = await activation.value
        case .lowerMemory(let mebibytes, let index):
            let target = target(index)
            await host.setMemoryLimit(target.bundle, bytes: mebibytes << 20)
            _ = await activate(target, .timeline)
            await host.setMemoryLimit(target.bundle, bytes: originalLimits[target.bundle] ?? 30 << 20)
            await host.clearFailures(target.bundle)
        case .advance(let seconds):
            await host.advance(by: .seconds(seconds))
        }
    }

    private func activate(_ target: Target, _ kind: ActivationKind) async -> ActivationOutcome? {
        await host.activate(target.bundle, kind, widget: target.kinds[0])
    }

    private func killAtStep(_ step: ProtocolStep, target: Target?) async {
        if step.isDelivery {
            // The delivery of session events comes with time: reloads start downloads, their
            // ends relaunch extensions by identifier.
            let arm = await host.killAt(step, of: target?.bundle)
            let marker = "chaos at step \(step.rawValue)"
            _ = await host.advance(by: .seconds(3 * 3600)) { $0.kind == .killed && $0.string("detail") == marker }
            await host.disarm(arm)
            return
        }
        guard let target else { return }
        if step == .spawned || step == .hello, let pid = await host.liveProcesses()[target.bundle] {
            // A running process first dies (chaos), so that the activation launches a new one.
            await host.kill(target.bundle, reason: .chaos)
            _ = try? await host.waitForEvent(timeout: deadline) { $0.kind == .exited && $0.pid == pid }
        }
        let arm = await host.killAt(step, of: target.bundle)
        _ = await activate(target, step == .hello || step == .spawned ? .placeholder : .timeline)
        await host.disarm(arm)
    }

    /// The end of a killed epoch at `step`: time passes and activations run until the host
    /// kills itself there (or, when the step does not come within `hostStepWait`, at once).
    /// Never returns.
    public func killHost(at step: ProtocolStep) async -> Never {
        _ = await host.killAt(step, target: .host)
        let started = ContinuousClock.now
        var round = 0
        while ContinuousClock.now - started < Self.hostStepWait {
            // Launch steps come from an activation of a process that is not running; the
            // others from any activation (a timeline starts downloads), delivery steps with time.
            let target = targets[round % targets.count]
            if step == .spawned || step == .hello { await host.kill(target.bundle, reason: .chaos) }
            _ = await activate(target, .timeline)
            await host.advance(by: .seconds(step.isDelivery ? 900 : 60))
            round += 1
        }
        // The step never came (apps without background sessions never deliver events): the host
        // dies all the same, at this moment.
        await host.record(
            .hostKilled,
            [
                ("step", .string("none")),
                ("detail", .string("chaos: \(step.rawValue) did not come within \(Self.hostStepWait); the host SIGKILLs itself now"))
            ])
        Glibc.kill(getpid(), SIGKILL)
        while true { pause() }
    }

    /// Lets time pass (downloads and deliveries go on) until someone kills this process.
    public func idleUntilKilled() async throws {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < deadline {
            await host.advance(by: .seconds(60))
        }
        throw Stall(description: "the host was not killed within \(deadline) of asking its supervisor to")
    }

    /// Lets the run drain: reloads stop, downloads end, their events are delivered and
    /// acknowledged. True when the journal is empty within the deadline.
    ///
    /// Time passes before each look: the run clock does not move past an activation in flight,
    /// so the journal is read only once the activations running when the drain began have
    /// ended — one of them may still create a task (a restarted host's first timeline does).
    public func drain() async -> Bool {
        await host.stopReloads()
        let started = ContinuousClock.now
        while ContinuousClock.now - started < deadline {
            await host.advance(by: .seconds(60))
            if await host.unfinishedTransfers() == 0, await host.unacknowledgedEvents() == 0 { return true }
        }
        return false
    }

    /// Runs `body` and waits at most ``deadline`` of real time for it (a body that hangs is
    /// left behind: the worker records the stall and ends).
    private func bounded(_ what: String, _ body: @escaping @Sendable () async -> Void) async throws {
        let race = FirstResult()
        let deadline = self.deadline
        let done = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            race.begin(continuation)
            Task {
                await body(); race.finish(true)
            }
            Task {
                try? await Task.sleep(for: deadline); race.finish(false)
            }
        }
        if !done {
            throw Stall(description: "\(what) did not finish within \(deadline) of real time")
        }
    }
}

/// The first of two racers to finish resumes the continuation; the other is ignored.
private final class FirstResult: Sendable {
    private let state = Mutex<(CheckedContinuation<Bool, Never>?, Bool?)>((nil, nil))

    func begin(_ continuation: CheckedContinuation<Bool, Never>) {
        let early = state.withLock { state -> Bool? in
            if let result = state.1 { return result }
            state.0 = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func finish(_ result: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.1 == nil else { return nil }
            state.1 = result
            defer { state.0 = nil }
            return state.0
        }
        continuation?.resume(returning: result)
    }
}

/// Kills seen so far, counted off the loop.
private final class KillCounter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
