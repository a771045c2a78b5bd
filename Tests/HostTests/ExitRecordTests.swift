import Glibc
import Testing

@testable import SandglassHost

@Suite("Exit record")
struct ExitRecordTests {
    @Test("an exit by SIGSYS is a sandbox violation, with its reason; other signals are not")
    func sigsys() {
        let record = ExitRecord(pid: 1, signal: SIGSYS, cpuMilliseconds: 0, peakRSSKiB: 0)
        #expect(record.sandboxViolation == "made a system call of another architecture (i386 int 0x80 or x32), which the sandbox forbids")
        #expect(ExitRecord(pid: 1, signal: SIGKILL, cpuMilliseconds: 0, peakRSSKiB: 0).sandboxViolation == nil)
        #expect(ExitRecord(pid: 1, status: 0, cpuMilliseconds: 0, peakRSSKiB: 0).sandboxViolation == nil)
    }
}
