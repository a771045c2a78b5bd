import Foundation

/// A `sandglass` subprocess whose output is read as it comes, so a test can wait — with a
/// deadline — for a line, instead of sleeping.
final class Subprocess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var output = ""
    private var errors = ""
    private var ended = false

    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment ?? testEnvironment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data, error: false)
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data, error: true)
        }
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            self.condition.lock()
            self.ended = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
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

    /// Waits for the process to end and returns its status.
    func waitForExit(timeout: TimeInterval = 60) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !ended {
            if !condition.wait(until: deadline) {
                condition.unlock()
                process.terminate()
                throw Failure("the process did not end within \(timeout) s")
            }
        }
        condition.unlock()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGKILLs the process if it is still running (cleanup after a failed test).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
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
