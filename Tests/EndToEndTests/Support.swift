import Foundation
import Glibc
import SandglassHost
import Synchronization
import Testing

/// The built example bundles (`make examples`).
enum Examples {
    static var directory: String {
        if let dir = testEnvironment["SANDGLASS_EXAMPLES"] { return dir }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/examples").path
    }

    /// The path of `name` (e.g. `Leaderboard.app`), failing with a hint when the examples are not built.
    static func app(_ name: String) throws -> String {
        let path = directory + "/" + name
        guard FileManager.default.fileExists(atPath: path + "/Info.plist") else {
            throw MissingExamples(path: path)
        }
        return path
    }

    struct MissingExamples: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not built: run `make examples` (make test does it)" }
    }
}

/// Runs `body` with a fresh host, and always shuts it down and removes its data.
func withHost(
    _ configure: (inout HostConfiguration) -> Void = { _ in },
    _ body: (ExtensionHost) async throws -> Void
) async throws {
    var configuration = HostConfiguration.temporary()
    configure(&configuration)
    let host = try await ExtensionHost(configuration)
    do {
        try await body(host)
    } catch {
        // The run's trace, so that a failure explains itself.
        let trace = await host.events().compactMap { e in TraceRenderer.render(e).map { TraceRenderer.stamp(e.t) + "  " + $0 } }
        FileHandle.standardError.write(Data(("--- trace of the failed test ---\n" + trace.joined(separator: "\n") + "\n").utf8))
        await host.shutdown()
        DirectoryTree.remove(configuration.dataDirectory)
        throw error
    }
    await host.shutdown()
    DirectoryTree.remove(configuration.dataDirectory)
}

extension HostConfiguration {
    /// Budgets long enough that an extension answering no activation (a rogue one, busy with its
    /// attack) is neither killed nor relaunched within a test: a new process would have budgets
    /// of its own (its log's, its requests').
    mutating func holdRoguesLong() {
        budgetOverrides.idle = .seconds(120)
        budgetOverrides.placeholder = .seconds(120)
        budgetOverrides.snapshot = .seconds(120)
        budgetOverrides.timeline = .seconds(120)
    }
}

extension ExtensionHost {
    /// The first event so far that satisfies `predicate`, or else the next one, advancing the
    /// run clock by up to `duration` for it.
    func seen(within duration: Duration, where predicate: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        if let event = await events().first(where: predicate) { return event }
        return await advance(by: duration, until: predicate)
    }

    /// Waits (real time) until events have given `count` different keys, and returns the one
    /// that gave the last: `key` names what an event counts as, or nil for an event not counted
    /// (the wait may look at an event more than once; a key counts once).
    func waitForDistinct(
        _ count: Int, timeout: Duration = .seconds(60), key: @escaping @Sendable (HostEvent) -> String?
    ) async throws -> HostEvent {
        let seen = Mutex<Set<String>>([])
        return try await waitForEvent(timeout: timeout) { event in
            guard let key = key(event) else { return false }
            return seen.withLock {
                $0.insert(key)
                return $0.count >= count
            }
        }
    }

    /// Waits (real time) for an event named `name` matching `predicate`.
    func waitFor(
        _ name: String, timeout: Duration = .seconds(20),
        sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: @escaping @Sendable (HostEvent) -> Bool = { _ in true }
    ) async throws -> HostEvent {
        do {
            return try await waitForEvent(timeout: timeout) { $0.name == name && predicate($0) }
        } catch HostError.timedOut {
            throw WaitTimedOut(name: name, timeout: timeout, sourceLocation: sourceLocation)
        }
    }
}

/// A wait of `waitFor` that ended without its event: which event, and where the test waited.
struct WaitTimedOut: Error, CustomStringConvertible {
    let name: String
    let timeout: Duration
    let sourceLocation: SourceLocation

    var description: String {
        "no matching \(name) event within \(timeout) (the wait at \(sourceLocation.fileName):\(sourceLocation.line))"
    }
}

/// A root-owned directory outside every container, with one file holding "precious": what a
/// planted link leads to in the containment tests. The caller removes the directory.
func makeVictim() throws -> (directory: String, file: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("victim-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    let file = directory + "/precious"
    try "precious".write(toFile: file, atomically: false, encoding: .utf8)
    return (directory, file)
}

/// Whether process `pid` still exists (alive or zombie).
func processExists(_ pid: Int32) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)")
}

/// The number of open file descriptors of this process.
func openFileDescriptorCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}

/// Zombie children of this process.
func zombieChildren() -> [Int32] {
    let me = getpid()
    var zombies: [Int32] = []
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { continue }
        // pid (comm) state ppid …; comm may contain spaces, so read after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, fields[0] == "Z", Int32(fields[1]) == me { zombies.append(pid) }
    }
    return zombies
}

/// Runs `work` — a subprocess waited for — on a thread of its own: blocking a thread of the
/// cooperative pool (two on a 2-core machine) for the seconds a stress run takes would starve
/// every async test running beside it.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Swift.Result { try work() })
        }
    }
}

/// The address of the Unix-domain socket at `path`.
func unixSocketAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        path.utf8CString.withUnsafeBytes { _ = memcpy(raw.baseAddress!, $0.baseAddress!, min($0.count, raw.count - 1)) }
    }
    return address
}
