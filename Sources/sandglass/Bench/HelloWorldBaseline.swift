import CSandbox
import Glibc

/// The floor for a cold start: the static hello-world Swift executable (`Examples/HelloWorld`,
/// standard library only, `--static-swift-stdlib`) spawned bare with `posix_spawn`, timed from
/// before the spawn to its first byte of output arriving on a pipe (its code ran) and to its reaping.
/// The same timing serves an extension's own binary started with the SDK's bare-start probe
/// (``bareStartEnvironment``): spawn → the first line of its `main`.
enum HelloWorldBaseline {
    /// One cold start: (spawn → first output, spawn → reaped), in nanoseconds.
    struct Sample: Sendable {
        let firstOutput: UInt64
        let exited: UInt64
    }

    /// Where `make examples` puts the executable, next to the bundles.
    static func executable(in examples: String) throws -> String {
        let path = examples + "/HelloWorld"
        guard access(path, X_OK) == 0 else {
            throw BadInput(
                "\(path) is missing: run `make examples` (it builds the static hello-world the benchmark compares cold starts with)")
        }
        return path
    }

    /// The environment in which an extension built with the SDK writes one byte to its
    /// standard output as the first thing its `main` does, and exits.
    static let bareStartEnvironment = ["SANDGLASS_BENCH_BARE_START_FD=1", "HOME=/tmp", "PATH=/usr/bin:/bin"]

    /// `count` cold starts, one after the other, on a dedicated thread.
    static func measure(_ executable: String, count: Int, environment: [String] = []) async throws -> [Sample] {
        try await onDedicatedThread {
            var samples: [Sample] = []
            for _ in 0..<count { samples.append(try once(executable, environment: environment)) }
            return samples
        }
    }

    private static func once(_ executable: String, environment: [String]) throws -> Sample {
        var pipe: [Int32] = [-1, -1]
        guard sg_pipe(&pipe) == 0 else { throw BadInput("pipe failed: errno \(errno)") }
        let started = sg_monotonic_ns()
        let child: RawChild
        do {
            child = try RawChild.spawn(executable, environment: environment, stdout: pipe[1])
        } catch {
            close(pipe[0]); close(pipe[1])
            throw error
        }
        close(pipe[1])
        _ = readAtLeast(pipe[0], 1)
        let output = sg_monotonic_ns()
        child.wait()
        let reaped = sg_monotonic_ns()
        close(pipe[0])
        return Sample(firstOutput: output - started, exited: reaped - started)
    }
}
