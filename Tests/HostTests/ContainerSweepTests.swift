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

/// The sweep of idle extensions' containers skips a process that did nothing since its last
/// measure — and only that one: an idle extension that writes a little, on next to no CPU (less
/// than /proc's 10 ms tick, less than the millisecond the sweep lets pass), is measured.
@Suite("Container sweep")
struct ContainerSweepTests {
    /// A shell that writes 4 KiB into a file of the container for each line it reads (a builtin:
    /// its own write, a few microseconds of CPU), answers `done`, and is idle — blocked in
    /// `read` — in between.
    private final class Worker {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(writingIn container: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while read line; do printf '%4096s' x >> \"$0\"; echo done; done", container + "/written"]
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

    @Test("a process that wrote since its last measure is measured, however little CPU it took; one that did nothing is skipped")
    func anyCodeIsMeasured() async throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: container) }
        let worker = try Worker(writingIn: container)
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
        var check = ContainerScanner.IdleCheck(pid: pid, containers: [container], inodeLimit: 100, activity: nil)
        let first = try #require(try await scanner.sweep([check]).first)
        #expect(first.measured, "a process never measured is measured")
        check.activity = first.activity

        let idle = try #require(try await scanner.sweep([check]).first)
        #expect(!idle.measured, "a process blocked in read ran no code, and is skipped")

        // Five rounds of a little writing each: a round takes far less than a clock tick (10 ms)
        // of CPU, and than the sweep's millisecond; a sweep that compared only CPU would skip them.
        var measured = 0
        for _ in 0..<5 {
            try worker.work()
            let result = try #require(try await scanner.sweep([check]).first)
            if result.measured {
                measured += 1
                check.activity = result.activity
            }
            #expect(result.usages.count == (result.measured ? 1 : 0))
        }
        #expect(measured == 5, "only \(measured) of 5 rounds of work were measured")
    }
}
