import Foundation
import SandglassHost

/// A `sandglass` subprocess whose output is read as it comes, so a test can wait — with a
/// deadline — for a line, instead of sleeping.
final class Subprocess: @unchecked Sendable {
    let process: ChildProcess
    private let condition = NSCondition()
    private var output = ""
    private var errors = ""
    private var ended = false
    private var openStreams = 2

    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = try ChildProcess(
            executable, arguments, environment: environment ?? testEnvironment, standardOutput: .pipe, standardError: .pipe)
        // A reader thread for each stream, and one that waits for the end.
        for (handle, isError) in [(process.standardOutput!, false), (process.standardError!, true)] {
            Thread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    append(data, error: isError)
                }
                condition.lock()
                openStreams -= 1
                condition.broadcast()
                condition.unlock()
            }.start()
        }
        Thread { [self, process] in
            process.wait()
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// Sends `signal` to the process (unless it was reaped).
    func signal(_ signal: Int32) {
        process.signal(signal)
    }

    private func append(_ data: Data, error: Bool) {
        condition.lock()
        if error { errors += String(decoding: data, as: UTF8.self) } else { output += String(decoding: data, as: UTF8.self) }
        condition.broadcast()
        condition.unlock()
    }

    var standardOutput: String {
        condition.lock(); defer { condition.unlock() }
        return output
    }

    var standardError: String {
        condition.lock(); defer { condition.unlock() }
        return errors
    }

    /// Waits until standard output has a line satisfying `predicate`, and returns it.
    func waitForLine(timeout: TimeInterval = 30, _ predicate: (Substring) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = output.split(separator: "\n").first(where: predicate) { return String(line) }
            if ended { throw Failure("the process ended before printing the line; output:\n\(output)\nerrors:\n\(errors)") }
            if !condition.wait(until: deadline) {
                throw Failure("no such line within \(timeout) s; output:\n\(output)\nerrors:\n\(errors)")
            }
        }
    }

    /// ``waitForLine(timeout:_:)`` on a thread of its own, leaving the cooperative pool to the
    /// async tests running beside it.
    func waitForLine(timeout: TimeInterval = 30, _ predicate: @escaping @Sendable (Substring) -> Bool) async throws -> String {
        try await offThePool { try self.waitForLine(timeout: timeout, predicate) }
    }

    /// ``waitForExit(timeout:)`` on a thread of its own.
    func waitForExit(timeout: TimeInterval = 60) async throws -> Int32 {
        try await offThePool { try self.waitForExit(timeout: timeout) }
    }

    /// Waits for the process to end and returns its status (the signal's number when killed).
    func waitForExit(timeout: TimeInterval = 60) throws -> Int32 {
        guard let termination = process.wait(timeout: .milliseconds(Int(timeout * 1000))) else {
            process.signal(SIGTERM)
            throw Failure("the process did not end within \(timeout) s")
        }
        // Its output read to the end (or for 5 s, if something it started holds the pipes), so
        // that a test sees all of it.
        let drained = Date().addingTimeInterval(5)
        condition.lock()
        while openStreams > 0 && condition.wait(until: drained) {}
        condition.unlock()
        return termination.status
    }

    /// SIGKILLs the process if it is still running (cleanup after a failed test).
    func stop() {
        process.signal(SIGKILL)
        process.wait()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Waits, up to `timeout`, for `condition` to hold, looking again every `interval` — for
/// states only reachable by asking (a file's contents, a daemon's answer).
func eventually(
    timeout: TimeInterval = 30, interval: TimeInterval = 0.05, _ what: String,
    _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw Subprocess.Failure("\(what): not within \(timeout) s") }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// ``eventually(timeout:interval:_:_:)`` for async tests: between looks it suspends instead of
/// blocking a thread of the cooperative pool.
func eventually(
    timeout: TimeInterval = 30, interval: TimeInterval = 0.05, _ what: String,
    _ condition: () throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw Subprocess.Failure("\(what): not within \(timeout) s") }
        try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
    }
}
