import Foundation
import Glibc
import SandglassHost
import Testing

/// The misbehaviour corpus all at once in one host — Misbehaving.app's ten extensions, the
/// memory hog, garbage frames and the internet socket — beside a good widget: each is contained
/// with its typed verdict, the good widget answers every time, and the host is unharmed.
@Suite("Misbehaviour corpus", .serialized)
struct MisbehaviourCorpusTests {
    static let good = "com.example.leaderboard.widget"

    /// Each misbehaving extension and the verdict that contains it.
    static let expected: [(bundle: String, verdict: ContainmentVerdict)] = [
        ("com.example.misbehaving.forkbomb", .denied(["clone"])),
        ("com.example.misbehaving.busyloop", .killed(.timeBudget)),
        ("com.example.misbehaving.sleeper", .killed(.timeBudget)),
        ("com.example.misbehaving.nevercompletes", .killed(.timeBudget)),
        ("com.example.misbehaving.doublecompletion", .answered),
        ("com.example.misbehaving.oversized", .killed(.protocolViolation)),
        ("com.example.misbehaving.outoforder", .killed(.protocolViolation)),
        ("com.example.misbehaving.writesoutside", .answered),
        ("com.example.misbehaving.ptrace", .denied(["ptrace"])),
        ("com.example.misbehaving.exec", .answered),
        ("com.example.memoryhog.widget", .killed(.memory)),
        ("com.example.garbage.widget", .killed(.protocolViolation)),
        ("com.example.network.widget", .denied(["socket"]))
    ]

    @Test("every misbehaviour contained with its verdict, at once, beside a good widget that answers every time")
    func allAtOnce() async throws {
        // Idle termination is not what this test is about: on a loaded machine the slowest
        // misbehaviour can outlast a quick extension's default 5 s idle budget.
        try await withHost({
            $0.schedulesWidgets = false; $0.budgetOverrides.idle = .seconds(120)
        }) { host in
            for app in ["Misbehaving.app", "MemoryHog.app", "Garbage.app", "Network.app", "Leaderboard.app"] {
                try await host.install(Examples.app(app))
            }
            // Every misbehaving timeline at the same time, and the good widget's meanwhile.
            let outcomes = await withTaskGroup(of: (String, ActivationOutcome?).self) { group in
                for (bundle, _) in Self.expected {
                    group.addTask { (bundle, await host.activate(bundle, .timeline, widget: Self.kind(bundle))) }
                }
                for n in 0..<5 {
                    group.addTask { ("good \(n)", await host.activate(Self.good, .timeline, widget: "Leaderboard")) }
                }
                var all: [String: ActivationOutcome?] = [:]
                for await (bundle, outcome) in group { all[bundle] = outcome }
                return all
            }
            let events = await host.events()
            var wrong: [String] = []
            for (bundle, verdict) in Self.expected where ContainmentVerdict.of(bundle, in: events) != verdict {
                wrong.append(
                    "\(bundle): \(ContainmentVerdict.of(bundle, in: events)), not \(verdict) (activation: \(String(describing: outcomes[bundle] ?? nil)))"
                )
            }
            // Thrown, so that the run's trace is printed with the failure.
            if !wrong.isEmpty { throw VerdictMismatch(description: wrong.joined(separator: "\n")) }
            for n in 0..<5 {
                guard case .timeline? = outcomes["good \(n)"] ?? nil else {
                    Issue.record("the good widget's timeline \(n) did not answer: \(String(describing: outcomes["good \(n)"] ?? nil))")
                    continue
                }
            }
            #expect(!events.contains { $0.kind == .killed && $0.bundle == Self.good }, "the good widget is never killed")

            // What each one tried did not get out.
            let tried = events.filter { $0.kind == .log && $0.bundle == "com.example.misbehaving.writesoutside" }.compactMap {
                $0.string("message")
            }
            #expect(tried.contains { $0.contains("/tmp/sandglass-escape") && $0.contains("errno") })
            for pid in events.filter({ $0.kind == .spawned && $0.bundle == "com.example.misbehaving.writesoutside" }).compactMap(\.pid) {
                #expect(!FileManager.default.fileExists(atPath: "/tmp/sandglass-escape-\(pid)"))
                #expect(!FileManager.default.fileExists(atPath: "/etc/sandglass-escape-\(pid)"))
            }
            #expect(tried.contains { $0.contains("Documents/inside: written") }, "writes inside its container work")
            let exec = events.filter { $0.kind == .log && $0.bundle == "com.example.misbehaving.exec" }.compactMap { $0.string("message") }
            #expect(exec.contains { $0.contains("execve(/bin/sh) failed") })
            #expect(!exec.contains { $0.contains("escaped the sandbox") })
            let ptrace = events.filter { $0.kind == .sandboxDenied && $0.bundle == "com.example.misbehaving.ptrace" }
            #expect(ptrace.allSatisfy { $0.string("syscall") == "ptrace" } && ptrace.count == 2)
            let doubled = events.filter { $0.kind == .log && $0.bundle == "com.example.misbehaving.doublecompletion" }.compactMap {
                $0.string("message")
            }
            #expect(doubled.contains { $0.contains("called its completion a second time") })
            let bomb = events.filter { $0.kind == .log && $0.bundle == "com.example.misbehaving.forkbomb" }.compactMap {
                $0.string("message")
            }
            #expect(bomb.contains { $0.contains("64 of 64 forks refused") })

            // The host is unharmed: a second round, and the good widget still answers.
            guard case .timeline? = await host.activate(Self.good, .timeline, widget: "Leaderboard") else {
                Issue.record("the good widget stopped answering")
                return
            }
            // (The host's descriptors are counted by the stress worker, a process of its own; in
            // this process the other suites open and close theirs meanwhile.)
            await host.shutdown()
            let report = InvariantChecker().check(await host.events())
            #expect(report.held, "\(report)")
        }
    }

    static func kind(_ bundle: String) -> String {
        switch bundle {
        case "com.example.memoryhog.widget": "MemoryHog"
        case "com.example.garbage.widget": "Garbage"
        case "com.example.network.widget": "Network"
        default: "Misbehaving"
        }
    }
}

/// Extensions whose containment verdict is not the expected one.
struct VerdictMismatch: Error, CustomStringConvertible {
    let description: String
}
