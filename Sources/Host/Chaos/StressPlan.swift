/// Every choice of a `sandglass stress` run, from its seed: which fault each iteration injects,
/// at which step or moment, on which extension, where the host dies and how. Each choice is a
/// function of the seed and its own coordinates (the iteration's number, the epoch's), so the
/// same seed gives the same plan, and a shard runs exactly its part of it.
///
/// What a seed reproduces exactly: the faults, their order, their steps, delays and targets,
/// the host deaths and the network faults (by arrival order at the fixture server). What it
/// cannot: real timing — where in its code a process is when a random-moment kill lands, how
/// far a download got when the host died.
public struct StressPlan: Sendable, Hashable {
    public let seed: UInt64
    public let faults: Set<ChaosFault>

    public init(seed: UInt64, faults: Set<ChaosFault> = Set(ChaosFault.allCases)) {
        self.seed = seed
        self.faults = faults
    }

    /// One host's stretch of the run.
    public struct Epoch: Sendable, Hashable {
        /// 0, 1, 2 …
        public let index: Int
        /// The run's iteration numbers this host executes.
        public let iterations: Range<Int>
        public let ending: EpochEnding

        public init(index: Int, iterations: Range<Int>, ending: EpochEnding) {
            self.index = index
            self.iterations = iterations
            self.ending = ending
        }
    }

    /// The epochs covering `iterations` iterations. With the `host` fault: hosts of 10 to 40
    /// iterations each (the last one shorter), each SIGKILLed at its end, then one more host
    /// that only drains the run (its downloads and deliveries) and shuts down. Without it: one
    /// host that runs every iteration, drains and shuts down.
    public func epochs(iterations total: Int) -> [Epoch] {
        guard faults.contains(.host) else {
            return [Epoch(index: 0, iterations: 0..<total, ending: .shutdown)]
        }
        var epochs: [Epoch] = []
        var start = 0
        while start < total {
            let epoch = openEpoch(epochs.count, startingAt: start)
            epochs.append(Epoch(index: epoch.index, iterations: start..<min(total, epoch.iterations.upperBound), ending: epoch.ending))
            start = epoch.iterations.upperBound
        }
        return epochs + [drainEpoch(after: epochs.count, at: total)]
    }

    /// Epoch `index` of a run, starting at iteration `start`, as ``epochs(iterations:)`` makes
    /// it — for an open-ended run (`--duration`) that makes them one at a time. Needs `host`.
    public func openEpoch(_ index: Int, startingAt start: Int) -> Epoch {
        Epoch(index: index, iterations: start..<(start + epochLength(index)), ending: ending(index))
    }

    /// The last host of a run with the `host` fault: no chaos, it drains and shuts down.
    public func drainEpoch(after index: Int, at iteration: Int) -> Epoch {
        Epoch(index: index, iterations: iteration..<iteration, ending: .shutdown)
    }

    private func epochLength(_ index: Int) -> Int {
        var random = SeededRandom(seed: seed, 1, UInt64(index))
        return random.int(in: 10...40)
    }

    private func ending(_ index: Int) -> EpochEnding {
        var random = SeededRandom(seed: seed, 2, UInt64(index))
        if faults.contains(.steps) && random.chance(0.5) {
            return .hostKilledAt(ProtocolStep.allCases[random.int(in: 0...(ProtocolStep.allCases.count - 1))])
        }
        return .hostKilledAfter(milliseconds: random.int(in: 0...300))
    }

    /// The action of iteration `iteration`.
    public func action(_ iteration: Int) -> ChaosAction {
        var random = SeededRandom(seed: seed, 3, UInt64(iteration))
        var weighted: [(ChaosFault?, Int)] = []
        if faults.contains(.steps) { weighted.append((.steps, 45)) }
        if faults.contains(.kill) { weighted.append((.kill, 30)) }
        if faults.contains(.suspend) { weighted.append((.suspend, 8)) }
        if faults.contains(.memory) { weighted.append((.memory, 5)) }
        weighted.append((nil, 12)) // quiet time: reloads, downloads and deliveries on their own
        var pick = random.int(in: 0...(weighted.map(\.1).reduce(0, +) - 1))
        var chosen: ChaosFault?
        for (fault, weight) in weighted {
            if pick < weight { chosen = fault; break }
            pick -= weight
        }
        let target = random.int(in: 0...1023)
        switch chosen {
        case .steps?:
            // Systematically round the steps: iteration i of the steps takes step i mod 8.
            let step = ProtocolStep.allCases[iteration % ProtocolStep.allCases.count]
            return .killAtStep(step, target: step.isDelivery ? nil : target)
        case .kill?:
            let kinds: [ActivationKind] = [.placeholder, .snapshot, .timeline, .timeline]
            return .killDuring(kinds[random.int(in: 0...(kinds.count - 1))], afterMicroseconds: random.int(in: 0...20_000), target: target)
        case .suspend?:
            return .suspend(holdMilliseconds: random.int(in: 1...300), target: target)
        case .memory?:
            return .lowerMemory(mebibytes: random.int(in: 1...4), target: target)
        default:
            return .advance(seconds: random.int(in: 60...1800))
        }
    }
}
