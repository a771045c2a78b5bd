import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// A container scanner on a loop of its own.
actor ContainerScannerOnLoop {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var scanner: ContainerScanner?

    init() throws { loop = try EventLoop(name: "container-sweep") }

    func sweep(_ checks: [ContainerScanner.IdleCheck]) async throws -> [ContainerScanner.SweepResult] {
        if scanner == nil { scanner = try ContainerScanner(loop: loop) }
        let scanner = scanner!
        return await withCheckedContinuation { continuation in
            scanner.sweep(checks) { continuation.resume(returning: $0) }
        }
    }

    func close() { scanner?.close() }
}

/// The sweep of idle extensions' containers skips a process that ran no code since its last
/// measure — and only that one: an idle extension that writes a little, on less CPU than a
/// clock tick (10 ms: 6 MiB of writes take 2–3 ms), is measured like any other.
@Suite("Container sweep")
struct ContainerSweepTests {
    /// A shell that runs a short loop (a few milliseconds of CPU, less than a tick) for each line it reads,
    /// answers `done`, and is idle — blocked in `read` — in between.
    private final class Worker {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while read line; do i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; echo done; done"]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// One round of work, waited for.
        func work() throws {
            input.fileHandleForWriting.write(Data("go\n".utf8))
            var answer = Data()
            while !answer.contains(UInt8(ascii: "\n")) {
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else { throw CocoaError(.fileReadUnknown) }
                answer += more
            }
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test("a process that ran any code since its last measure is measured, however little; one that ran none is skipped")
    func anyCodeIsMeasured() async throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: container) }
        let worker = try Worker()
        defer { worker.stop() }
        try worker.work() // the shell started; what it did at start is its first measure's
        let scanner = try ContainerScannerOnLoop()
        do {
            try await rounds(of: worker, in: container, scanner)
        } catch {
            await scanner.close()
            scanner.loop.stop()
            throw error
        }
        await scanner.close()
        scanner.loop.stop()
    }

    private func rounds(of worker: Worker, in container: String, _ scanner: ContainerScannerOnLoop) async throws {
        let pid = worker.process.processIdentifier
        var check = ContainerScanner.IdleCheck(pid: pid, containers: [container], inodeLimit: 100, cpuTime: nil)
        let first = try #require(try await scanner.sweep([check]).first)
        #expect(first.measured, "a process never measured is measured")
        check.cpuTime = first.cpuTime

        let idle = try #require(try await scanner.sweep([check]).first)
        #expect(!idle.measured, "a process blocked in read ran no code, and is skipped")

        // Five rounds of a little work each: a clock tick is 10 ms of CPU, a round far less, so
        // a sweep that compared ticks would skip nearly every round.
        var measured = 0
        for _ in 0..<5 {
            try worker.work()
            let result = try #require(try await scanner.sweep([check]).first)
            if result.measured {
                measured += 1
                check.cpuTime = result.cpuTime
            }
            #expect(result.usages.count == (result.measured ? 1 : 0))
        }
        #expect(measured == 5, "only \(measured) of 5 rounds of work were measured")
    }
}
