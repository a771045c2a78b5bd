import CSandbox
import Glibc
import SandglassIPC

/// Launch: an extension's process spawned into the sandbox when it has none, after its backoff,
/// and waited for until it says hello (or dies).
extension Supervisor {
    /// The extension's ready process, launching one if needed — not before its backoff after
    /// failures has ended, and never once it has failed permanently.
    func ensureRunning(_ ext: ManagedExtension) async -> Result<ExtensionProcess, LaunchFailure> {
        if isShuttingDown && ext.process == nil { return .failure(.shuttingDown) }
        if ext.process == nil {
            if ext.crashLoop.isFailedPermanently { return .failure(.failedPermanently) }
            if let until = ext.crashLoop.blockedUntil(now: clock.now) {
                await backoffWaits.wait(until: until, for: ext)
                return await ensureRunning(ext)
            }
        }
        if let process = ext.process {
            switch process.state {
            case .ready: return .success(process)
            case .launching:
                return await waitForLaunch(process, of: ext)
            case .exiting:
                // Wait for the dying process to be reaped, then start over.
                await withCheckedContinuation { continuation in
                    if ext.process !== process { continuation.resume() } else { exitWaiters.append(continuation) }
                }
                return await ensureRunning(ext)
            }
        }
        switch launch(ext) {
        case .success(let process): return await waitForLaunch(process, of: ext)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Starts the extension's process now, when it has none and may launch at once (no backoff,
    /// not shutting down): for an activation the caller knows is coming, so that the spawn does
    /// not wait for work the caller does first. The activation finds the launch under way.
    func launchAhead(_ ext: ManagedExtension) {
        loop.assertInLoop()
        guard !isShuttingDown, ext.process == nil, !ext.crashLoop.isFailedPermanently,
            ext.crashLoop.blockedUntil(now: clock.now) == nil
        else { return }
        _ = launch(ext)
    }

    /// Spawns the extension's process; a failure is logged and counted against its backoff.
    private func launch(_ ext: ManagedExtension) -> Result<ExtensionProcess, LaunchFailure> {
        do {
            return .success(try spawn(ext))
        } catch {
            log.emit(.spawnFailed, [("bundle", .string(ext.identifier)), ("error", .string("\(error)"))])
            recordFailure(of: ext, pid: nil, cause: "spawn failed")
            return .failure(.spawn("\(error)"))
        }
    }

    private func waitForLaunch(_ process: ExtensionProcess, of ext: ManagedExtension) async -> Result<ExtensionProcess, LaunchFailure> {
        // The body of withCheckedContinuation may run after an executor hop, when the hello (or
        // the death) has already been handled: the lifecycle resumes it at once then.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, LaunchFailure>, Never>) in
            drive(process, of: ext, .launchWaited(continuation))
        }
        return result.map { process }
    }

    private func spawn(_ ext: ManagedExtension) throws -> ExtensionProcess {
        let environment = Self.spawnEnvironment(for: ext, base: settings.environment)
        let started = sg_monotonic_ns()
        let spawned = try launcher.launch(
            LaunchRequest(
                bundleIdentifier: ext.identifier,
                executable: ext.bundle.executablePath,
                environment: environment,
                container: ext.container,
                memoryBytes: ext.budgets.memoryBytes,
                executableRoot: ext.bundle.path,
                user: ext.identity,
                containerBytes: ext.budgets.containerBytes,
                group: ext.identifier,
                sharedDirectories: ext.appGroups.keys.sorted().compactMap { ext.appGroups[$0] },
                supplementaryGroups: ext.appGroupGids
            ))
        let cgroup = spawned.cgroup
        let spawnMs = Double(sg_monotonic_ns() - started) / 1e6
        cgroup?.resetPeak()
        // The launch budget stays on the loop's timer (activations' budgets are on the deadline thread).
        let (lifecycle, launched) = ExtensionProcess.Lifecycle.spawned(
            launchDeadline: started + ext.budgets.launch.nanoseconds,
            idleBudget: ext.budgets.idle)
        let process = ExtensionProcess(
            launched: spawned, spawnedAt: started, lifecycle: lifecycle, messageLimits: settings.messageLimits)
        ext.process = process
        ext.launches += 1
        process.channel = Channel(fd: spawned.channelFD, loop: loop, maximumFrameLength: settings.maximumFrameLength) {
            [unowned self, unowned process] event in self.handle(event, from: process, of: ext)
        }
        if let pidfd = spawned.pidfd {
            process.killTarget = killer?.target(pidfd: pidfd, channelFD: spawned.channelFD, listenerFD: spawned.listenerFD ?? -1)
        }
        process.channel.killTarget = process.killTarget
        // The pid, not the process: the process holds its reader, which must not hold it back.
        let pid = process.pid
        process.output = OutputReader(fd: spawned.outputFD, loop: loop) { [unowned self] line in
            self.log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
                    ("stream", "output"), ("message", .string(line))
                ])
        }
        loop.register(process.exitFD, events: UInt32(SG_EPOLLIN)) { [unowned self, unowned process] _ in
            self.reap(process, of: ext)
        }
        if let listener = spawned.listenerFD {
            loop.register(listener, events: UInt32(SG_EPOLLIN)) { [unowned self, unowned process] mask in
                self.handleDenial(process, of: ext, mask: mask)
            }
        }
        log.emit(
            .spawned,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("launch", .int(Int64(ext.launches))), ("ms", .double((spawnMs * 1000).rounded() / 1000)),
                ("childSetupMs", .double(Double(spawned.setupNanoseconds / 1000) / 1000)),
                ("cgroupJoinMs", .double(Double(spawned.cgroupJoinNanoseconds / 1000) / 1000)),
                ("memoryLimitBytes", .int(Int64(ext.budgets.memoryBytes))),
                ("memoryEnforcement", .string(launcher.memoryEnforcement))
            ])
        perform(launched, for: process, of: ext) // the clock held until its hello, the launch budget's timer
        if cgroup == nil && sandbox.policy.cgroups == false || cgroup == nil {
            startWatchdog(process, of: ext)
        }
        checkContainer(process, of: ext)
        hooks.stepReached(.spawned, ext, process)
        return process
    }
}
