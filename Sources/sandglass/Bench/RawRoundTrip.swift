import ArgumentParser
import CSandbox
import Foundation
import Glibc
import SandglassHost

/// The IPC baseline: a raw round trip over a socketpair to a child process that echoes, with
/// blocking read/write on both sides — nothing of Sandglass in the path.
enum RawRoundTrip {
    /// Round trips of `size`-byte messages, in nanoseconds, measured on a dedicated thread; with
    /// `cpu`, that thread and the echo child are pinned to that CPU.
    static func measure(count: Int, size: Int, cpu: Int?, warmup: Int = 200) async throws -> [UInt64] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try measureOnThisThread(count: count, size: size, cpu: cpu, warmup: warmup) })
            }
        }
    }

    private static func measureOnThisThread(count: Int, size: Int, cpu: Int?, warmup: Int) throws -> [UInt64] {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw ValidationError("socketpair failed: errno \(errno)")
        }
        var executable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).standardizedFileURL.resolvingSymlinksInPath().path
        if !FileManager.default.isExecutableFile(atPath: executable) {
            executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        }
        let child = try ChildProcess(
            executable, ["bench-echo", String(size)], environment: ProcessInfo.processInfo.environment,
            standardInput: .descriptor(fds[1]), standardOutput: .descriptor(1), standardError: .descriptor(2))
        close(fds[1])
        if let cpu {
            _ = sg_set_affinity(0, Int32(cpu))
            _ = sg_set_affinity(child.pid, Int32(cpu))
        }
        defer {
            close(fds[0])
            child.wait()
        }
        var message = [UInt8](repeating: 0x5A, count: size)
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for i in 0..<(warmup + count) {
            let started = DispatchTime.now().uptimeNanoseconds
            guard writeAll(fds[0], &message), readAll(fds[0], &message) else { throw ValidationError("the echo child stopped") }
            if i >= warmup { samples.append(DispatchTime.now().uptimeNanoseconds - started) }
        }
        return samples
    }

    static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return false }
            done += n
        }
        return true
    }

    static func readAll(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return false }
            done += n
        }
        return true
    }
}
