import CSandbox
import Foundation
import Glibc
import SandglassHost
import SandglassReport
import SandglassTesting
import Synchronization

/// Runs a stress plan: one host process per epoch on a shared data directory, SIGKILLed and
/// started again as the plan says; every extension a dead host leaves is reaped here (this
/// process is their subreaper) and checked to have died with it; the hosts' logs are merged
/// with the conductor's own events, and the invariants are checked over the whole.
final class StressConductor {
    struct Settings {
        var apps: [String]
        var plan: StressPlan
        var iterations: Int?
        var duration: Duration?
        /// This process's part of the run: iteration k is run by shard k mod count.
        var shard: Shard
        var dataDirectory: String
        var logPath: String
        var progress: Bool
        /// A Perfetto trace of every host, one after the other (`--trace`).
        var tracePath: String?
        var environment: [String]
        /// `--deny-connect`, `--allow-connect` and `--require-sandbox` for every worker's host.
        var hostArguments: [String] = []
    }

    let settings: Settings
    private let executable: String
    private var events: [HostEvent] = []
    private let started = ContinuousClock.now
    private let log: FileHandle
    private var totalKills = 0
    /// Each host's events, for the trace.
    private var hostRuns: [RunLog] = []

    init(_ settings: Settings) throws {
        self.settings = settings
        executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: settings.logPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: settings.logPath)
        else {
            throw BadInput("cannot write the event log \(settings.logPath)")
        }
        log = handle
    }

    /// Milliseconds since the stress run started (real time).
    private var now: Double {
        let elapsed = (ContinuousClock.now - started).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }

    /// Appends a conductor event to the merged log.
    private func emit(_ name: EventName, _ fields: [(String, JSONValue)]) {
        let event = HostEvent(t: now, name: name, fields: fields)
        append(event)
    }

    private func append(_ event: HostEvent) {
        events.append(event)
        log.write(Data((event.jsonLine + "\n").utf8))
    }

    /// Runs the plan; returns the summary (with the invariant verdicts).
    func run(command: String) async throws -> StressSummary {
        _ = sg_set_child_subreaper()
        let server = try await FixtureServer.start()
        let plan = settings.plan
        let url = plan.faults.contains(.network) ? server.url("/chaos/65536?seed=\(plan.seed)") : server.url("/bytes/65536")
        let share = settings.iterations.map { settings.shard.share(of: $0) }
        let progress = StressProgress(total: share, enabled: settings.progress)
        emit(
            .stressStart,
            [
                ("seed", .int(Int64(bitPattern: plan.seed))), ("faults", .array(plan.faults.sorted().map { .string($0.rawValue) })),
                ("iterations", settings.iterations.map { .int(Int64($0)) } ?? .null),
                ("durationMs", settings.duration.map { .double(Double($0.components.seconds) * 1000) } ?? .null),
                ("shard", .string(settings.shard.description)), ("fixtureURL", .string(url)),
                ("apps", .array(settings.apps.map { .string($0) })), ("command", .string(command))
            ])

        var index = 0
        var iteration = 0
        var ranIterations = 0
        while true {
            let epoch: StressPlan.Epoch
            if let share {
                let epochs = plan.epochs(iterations: share)
                guard index < epochs.count else { break }
                epoch = epochs[index]
            } else if plan.faults.contains(.host) {
                let timeUp = ContinuousClock.now - started >= settings.duration ?? .zero
                epoch = timeUp ? plan.drainEpoch(after: index, at: iteration) : plan.openEpoch(index, startingAt: iteration)
            } else {
                // One host for the whole duration: it stops taking iterations when time is up.
                epoch = StressPlan.Epoch(index: 0, iterations: 0..<Int.max, ending: .shutdown)
            }
            let isDrain = epoch.ending == .shutdown
            ranIterations += try await runHost(epoch, fixtureURL: url, progress: progress)
            iteration = epoch.iterations.upperBound
            index += 1
            if isDrain { break }
        }
        progress.finish()

        for (uri, count) in server.completedBodiesByURI.sorted(by: { $0.key < $1.key }) {
            emit(.serverCompleted, [("uri", .string(uri)), ("count", .int(Int64(count)))])
        }
        await server.stop()
        let zombies = ProcessHygiene.zombieChildren()
        emit(
            .stressHygiene,
            [("zombies", .int(Int64(zombies.count))), ("children", .array(ProcessHygiene.children().map { .int(Int64($0.pid)) }))])

        let report = InvariantChecker().check(events)
        for violation in report.violations { emit(.invariantViolated, violation.fields) }
        let summary = StressSummary(events: events, report: report)
        emit(.stressEnd, summary.fields + [("ranIterations", .int(Int64(ranIterations)))])
        try? log.close()
        if let tracePath = settings.tracePath {
            do { try PerfettoTrace.write(hostRuns, to: tracePath) } catch {
                throw BadInput("cannot write the trace \(tracePath): \(error)")
            }
        }
        return summary
    }

    /// Runs one host process for `epoch` (its iterations numbered within this shard's share:
    /// local iteration j is the run's iteration `shard.index + j * shard.count`); returns the
    /// iterations it ran.
    private func runHost(_ epoch: StressPlan.Epoch, fixtureURL: String, progress: StressProgress) async throws -> Int {
        let hostLog = settings.dataDirectory + "/host-\(epoch.index).jsonl"
        let count: Int
        if epoch.iterations.upperBound == Int.max {
            count = 1_000_000_000 // until the duration ends: see the deadline below
        } else {
            count = epoch.iterations.count
        }
        var arguments =
            ["stress-worker"] + settings.apps + [
                "--data-directory", settings.dataDirectory + "/data", "--log", hostLog,
                "--seed", String(settings.plan.seed), "--faults", settings.plan.faults.sorted().map(\.rawValue).joined(separator: ","),
                "--first", String(settings.shard.index + epoch.iterations.lowerBound * settings.shard.count), "--count", String(count),
                "--stride", String(settings.shard.count), "--ending", epoch.ending.argument,
                "--env", "SANDGLASS_FIXTURE_URL=\(fixtureURL)"
            ]
        for pair in settings.environment { arguments += ["--env", pair] }
        arguments += settings.hostArguments
        if count == 1_000_000_000, let duration = settings.duration {
            let stopAt = Date().timeIntervalSince1970 + Double((started + duration - ContinuousClock.now).components.seconds)
            arguments += ["--stop-at", String(stopAt)]
        }
        let worker = try WorkerProcess(
            executable: executable, arguments: arguments, standardError: settings.dataDirectory + "/host-\(epoch.index).stderr")
        emit(
            .hostStarted,
            [
                ("host", .int(Int64(epoch.index))), ("hostPid", .int(Int64(worker.pid))),
                ("first", .int(Int64(epoch.iterations.lowerBound))), ("iterations", .int(Int64(min(count, epoch.iterations.count)))),
                ("ending", .string(epoch.ending.description))
            ])
        progress.host(epoch.index, pid: worker.pid)
        let baseKills = totalKills
        let state = Mutex((kills: 0, ran: 0, stall: String?.none))
        let ending = epoch.ending
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let status = worker.run { line in
                    let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                    switch words.first {
                    case "progress" where words.count == 3:
                        let kills = Int(words[2]) ?? 0
                        state.withLock {
                            $0.kills = kills; $0.ran += 1
                        }
                        progress.iterationDone(kills: baseKills + kills)
                    case "kill-me":
                        if case .hostKilledAfter(let ms) = ending {
                            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) { worker.kill() }
                        }
                    case "stall":
                        state.withLock { $0.stall = words.dropFirst().joined(separator: " ") }
                    default:
                        break
                    }
                }
                continuation.resume(returning: status)
            }
        }
        let (kills, ran, stall) = state.withLock { $0 }
        totalKills = baseKills + kills

        // The host's own log first, then what its death left.
        let hostEvents = (try? HostEvent.read(logAt: hostLog)) ?? Self.readLenient(hostLog)
        for event in hostEvents { append(event) }
        if settings.tracePath != nil { hostRuns.append(RunLog(source: "host \(epoch.index)", events: hostEvents)) }
        let killed = sg_wifsignaled(status) != 0 && sg_wtermsig(status) == SIGKILL
        if killed { progress.hostKilled() }
        var fields: [(String, JSONValue)] = [
            ("host", .int(Int64(epoch.index))), ("hostPid", .int(Int64(worker.pid))), ("killed", .bool(killed))
        ]
        if sg_wifsignaled(status) != 0 {
            fields.append(("signal", .int(Int64(sg_wtermsig(status)))))
        } else {
            fields.append(("status", .int(Int64(sg_wexitstatus(status)))))
        }
        let (orphans, survivors) = reapOrphans(of: hostEvents)
        fields += [
            ("orphansReaped", .array(orphans.map { .int(Int64($0)) })), ("survivors", .array(survivors.map { .int(Int64($0)) })),
            ("iterationsRun", .int(Int64(ran)))
        ]
        if let stall { fields.append(("stall", .string(stall))) }
        if !killed && sg_wifexited(status) != 0 && sg_wexitstatus(status) != 0 && stall == nil {
            let errorText = (try? String(contentsOfFile: settings.dataDirectory + "/host-\(epoch.index).stderr", encoding: .utf8)) ?? ""
            fields.append(("error", .string(String(errorText.suffix(2000)))))
            emit(.hostEnded, fields)
            throw BadInput(
                "host \(epoch.index) (pid \(worker.pid)) failed with status \(sg_wexitstatus(status)):\n\(errorText.suffix(2000))")
        }
        emit(.hostEnded, fields)
        return ran
    }

    /// The extensions a host left: each must die with it (PR_SET_PDEATHSIG) and is reaped here,
    /// its subreaper. Returns the reaped orphans and those still alive after 5 s (then killed).
    private func reapOrphans(of hostEvents: [HostEvent]) -> (orphans: [Int32], survivors: [Int32]) {
        var live = Set<Int32>()
        for event in hostEvents {
            if event.kind == .spawned, let pid = event.pid { live.insert(pid) }
            if event.kind == .exited, let pid = event.pid { live.remove(pid) }
        }
        var orphans: [Int32] = []
        var survivors: [Int32] = []
        // Every child of this process now is an orphan of the dead host (its extensions, even
        // one cloned after the host's last log line).
        for child in ProcessHygiene.children() {
            orphans.append(child.pid)
            if !reapOrphan(child.pid, milliseconds: 5000) {
                survivors.append(child.pid)
                Glibc.kill(child.pid, SIGKILL)
                _ = reapOrphan(child.pid, milliseconds: 5000)
            }
            live.remove(child.pid)
        }
        // A logged extension that is neither gone nor our child escaped the reparenting.
        for pid in live.sorted() {
            if let status = ProcessHygiene.status(of: pid),
                let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                cmdline.hasPrefix(settings.dataDirectory), status.state != "Z"
            {
                survivors.append(pid)
            }
        }
        return (orphans, survivors)
    }

    /// The events of a log whose last line a SIGKILL may have cut.
    static func readLenient(_ path: String) -> [HostEvent] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { HostEvent(jsonLine: String($0)) }
    }
}
