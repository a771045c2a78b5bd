import SandglassHost
import SandglassTesting
import Testing

/// `--seed N` reproduces the choices: the plan is a function of the seed alone.
@Suite("Stress plan")
struct StressPlanTests {
    @Test("the same seed makes the same choices; another seed, others")
    func reproducible() {
        let a = StressPlan(seed: 42), b = StressPlan(seed: 42), c = StressPlan(seed: 43)
        #expect((0..<2000).map(a.action) == (0..<2000).map(b.action))
        #expect(a.epochs(iterations: 5000) == b.epochs(iterations: 5000))
        #expect((0..<2000).map(a.action) != (0..<2000).map(c.action))
        // Each choice depends on its own coordinates only: iteration 1500 alone is the same.
        #expect(a.action(1500) == (0..<2000).map(b.action)[1500])
    }

    @Test("every protocol step is planned, systematically, and every fault appears")
    func coverage() {
        let plan = StressPlan(seed: 7)
        let actions = (0..<4000).map(plan.action)
        var steps: [ProtocolStep: Int] = [:]
        for case .killAtStep(let step, let target) in actions {
            steps[step, default: 0] += 1
            #expect((target == nil) == step.isDelivery)
        }
        #expect(Set(steps.keys) == Set(ProtocolStep.allCases))
        #expect(steps.values.min()! > 100)
        #expect(actions.contains { if case .killDuring = $0 { true } else { false } })
        #expect(actions.contains { if case .suspend = $0 { true } else { false } })
        #expect(actions.contains { if case .lowerMemory = $0 { true } else { false } })
        #expect(actions.contains { if case .advance = $0 { true } else { false } })
        let endings = plan.epochs(iterations: 10_000).map(\.ending)
        #expect(endings.contains { if case .hostKilledAt = $0 { true } else { false } })
        #expect(endings.contains { if case .hostKilledAfter = $0 { true } else { false } })
    }

    @Test("epochs cover the iterations once, all but the last host killed, the last drains")
    func epochs() {
        let plan = StressPlan(seed: 3)
        let epochs = plan.epochs(iterations: 1000)
        #expect(epochs.first?.iterations.lowerBound == 0)
        for (a, b) in zip(epochs, epochs.dropFirst()) { #expect(a.iterations.upperBound == b.iterations.lowerBound) }
        #expect(epochs.last?.iterations == 1000..<1000)
        #expect(epochs.last?.ending == .shutdown)
        #expect(epochs.dropLast().allSatisfy { $0.ending != .shutdown && (1...40).contains($0.iterations.count) })
        #expect(epochs.count > 1000 / 40)
        // An open-ended run makes the same epochs.
        #expect(plan.openEpoch(3, startingAt: epochs[3].iterations.lowerBound) == epochs[3])
        // Without host deaths: one host.
        let one = StressPlan(seed: 3, faults: [.kill, .steps]).epochs(iterations: 1000)
        #expect(one == [StressPlan.Epoch(index: 0, iterations: 0..<1000, ending: .shutdown)])
    }

    @Test("faults parse, and an unknown one names the known ones")
    func faults() throws {
        #expect(try ChaosFault.parse("kill, steps") == [.kill, .steps])
        #expect(try ChaosFault.parse("all") == Set(ChaosFault.allCases))
        #expect(throws: ChaosPlanError.self) { try ChaosFault.parse("kill,lightning") }
        do {
            _ = try ChaosFault.parse("lightning")
        } catch {
            #expect(error.description.contains("kill, steps, suspend, host, network, memory"))
        }
        for ending in [EpochEnding.shutdown, .hostKilledAt(.completionSent), .hostKilledAfter(milliseconds: 120)] {
            #expect(EpochEnding(argument: ending.argument) == ending)
        }
    }

    @Test("the generator is SplitMix64")
    func splitMix() {
        var random = SeededRandom(seed: 1234567)
        // Reference values of SplitMix64 for seed 1234567.
        #expect(random.next() == 6457827717110365317)
        #expect(random.next() == 3203168211198807973)
    }
}
