import Foundation
import SandglassHost
import Testing

/// Headless Chromium from Debian's packages (`apt-get install chromium`; `make test` and CI
/// install it when missing).
enum Chromium {
    /// The browser's path, nil when none is installed.
    static let path: String? = {
        let directories = (testEnvironment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// `make test` sets SANDGLASS_REQUIRE_CHROMIUM=1 once it has installed the browser: then a
    /// missing browser fails the test instead of skipping it.
    static var isRequired: Bool {
        testEnvironment["SANDGLASS_REQUIRE_CHROMIUM"] == "1"
    }

    /// Why the browser tests are skipped.
    static let skipReason: Comment =
        "Chromium is not installed (apt-get install -y chromium; make test installs it): the report is not opened in a browser"

    struct Page: Sendable {
        /// The DOM after the page's scripts ran.
        var dom: String
        /// The browser's log (console messages with --enable-logging).
        var log: String
    }

    /// ``open(_:fragment:timeout:)`` on a thread of its own: the browser takes seconds, which
    /// a thread of the cooperative pool should not spend waiting.
    static func open(_ file: String, fragment: String? = nil, timeout: TimeInterval = 90) async throws -> Page {
        try await offThePool { try open(file, fragment: fragment, timeout: timeout) as Page }
    }

    /// Opens `file` headless, lets its scripts run, and returns the DOM; fails after `timeout`.
    static func open(_ file: String, fragment: String? = nil, timeout: TimeInterval = 90) throws -> Page {
        guard let path else { throw Subprocess.Failure("\(skipReason)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-chromium-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let domPath = dir.appendingPathComponent("dom.html"), logPath = dir.appendingPathComponent("log.txt")
        _ = FileManager.default.createFile(atPath: domPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: logPath.path, contents: nil)
        let arguments = [
            "--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom",
            URL(fileURLWithPath: file).absoluteString + (fragment.map { "#\($0)" } ?? "")
        ]
        let domFile = try FileHandle(forWritingTo: domPath), logFile = try FileHandle(forWritingTo: logPath)
        let process = try ChildProcess(
            path, arguments, environment: testEnvironment,
            standardOutput: .descriptor(domFile.fileDescriptor), standardError: .descriptor(logFile.fileDescriptor))
        try domFile.close()
        try logFile.close()
        guard let termination = process.wait(timeout: .milliseconds(Int(timeout * 1000))) else {
            process.signal(SIGKILL)
            process.wait()
            throw Subprocess.Failure("Chromium did not render \(file) within \(timeout) s")
        }
        let dom = try String(contentsOf: domPath, encoding: .utf8)
        let log = (try? String(contentsOf: logPath, encoding: .utf8)) ?? ""
        guard termination == .exited(0) else {
            throw Subprocess.Failure("Chromium ended (\(termination)):\n\(log.suffix(2000))")
        }
        return Page(dom: dom, log: log)
    }
}
