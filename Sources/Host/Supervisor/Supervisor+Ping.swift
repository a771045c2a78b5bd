import CSandbox
import SandglassIPC

/// Ping: a round trip through the extension's IPC channel (the measurements' latency).
extension Supervisor {
    /// Sends `ping` and calls `answered` on the loop when the `pong` arrives — or with false when
    /// the process ends first (one probe at a time).
    func ping(_ ext: ManagedExtension, number: UInt64, answered: @escaping (Bool) -> Void) -> Bool {
        guard let process = ext.process, process.state == .ready, process.pingProbe == nil else { return false }
        process.pingProbe = ExtensionProcess.PingProbe(number: number, answered: answered)
        return process.channel.send(.ping(number))
    }

    /// Sends `count` pings one after the other; calls `done` with each round trip in nanoseconds.
    func pingChain(_ ext: ManagedExtension, count: Int, done: @escaping ([UInt64]) -> Void) {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        func next() {
            let started = sg_monotonic_ns()
            let sent = ping(ext, number: UInt64(samples.count)) { ok in
                guard ok else { return done(samples) }
                samples.append(sg_monotonic_ns() - started)
                if samples.count == count { done(samples) } else { next() }
            }
            if !sent { done(samples) }
        }
        next()
    }

    /// The `pong` numbered `n` arrived: the probe waiting for it is answered.
    func pong(_ n: UInt64, from process: ExtensionProcess, of ext: ManagedExtension) {
        guard let probe = process.pingProbe, probe.number == n else {
            return protocolViolation(process, of: ext, "sent pong \(n) for no ping")
        }
        process.pingProbe = nil
        probe.answered(true)
    }

    /// The process ended: a probe still waiting is answered with false.
    func endPing(_ process: ExtensionProcess) {
        if let probe = process.pingProbe {
            process.pingProbe = nil
            probe.answered(false)
        }
    }
}
