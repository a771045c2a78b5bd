import Glibc
import Testing

@testable import SandglassHost

@Suite("Exit classification")
struct ExitClassificationTests {
    private func record(signal: Int32? = nil, status: Int32? = nil, cpuMs: UInt64 = 10) -> ExitRecord {
        ExitRecord(pid: 7, status: status, signal: signal, cpuMilliseconds: cpuMs, peakRSSKiB: 1)
    }

    private func classify(_ record: ExitRecord, oomKilled: Bool = false, rlimits: Bool = true) -> ExitClassification? {
        var policy = SandboxPolicy()
        policy.cpuSeconds = 2
        policy.rlimits = rlimits
        var budgets = Budgets()
        budgets.memoryBytes = 4 << 20
        budgets.containerBytes = 1 << 20
        return ExitClassification(record, oomKilled: oomKilled, policy: policy, budgets: budgets)
    }

    @Test("the cgroup's OOM kill is a memory kill, whatever the signal")
    func oom() {
        #expect(
            classify(record(signal: SIGKILL), oomKilled: true)
                == ExitClassification(reason: .memory, detail: "over the 4096 KiB memory limit (cgroup OOM kill)"))
    }

    @Test("RLIMIT_CPU: SIGXCPU, or SIGKILL past the hard limit when rlimits are on")
    func cpu() {
        let expected = ExitClassification(reason: .cpu, detail: "RLIMIT_CPU of 2 s used up")
        #expect(classify(record(signal: SIGXCPU)) == expected)
        #expect(classify(record(signal: SIGKILL, cpuMs: 2000)) == expected)
        #expect(classify(record(signal: SIGKILL, cpuMs: 1999)) == nil, "under the limit: someone else's SIGKILL")
        #expect(classify(record(signal: SIGKILL, cpuMs: 2000), rlimits: false) == nil)
    }

    @Test("SIGXFSZ is the container quota; SIGSYS the sandbox")
    func fileSizeAndSeccomp() {
        #expect(
            classify(record(signal: SIGXFSZ))
                == ExitClassification(reason: .resource, detail: "a file reached the container quota of 1024 KiB (RLIMIT_FSIZE)"))
        #expect(classify(record(signal: SIGSYS))?.reason == .sandboxViolation)
    }

    @Test("its own end is no kill: an exit, a crash")
    func ownEnd() {
        #expect(classify(record(status: 0)) == nil)
        #expect(classify(record(status: 1)) == nil)
        #expect(classify(record(signal: SIGSEGV)) == nil)
    }
}
