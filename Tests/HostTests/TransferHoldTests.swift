import Foundation
import SandglassIPC
import SandglassTesting
import Testing

@testable import SandglassHost

/// Drives a transfer service on its own event loop thread, on a virtual clock.
actor TransferDriver {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init() throws {
        loop = try EventLoop(name: "transfer-test")
    }

    /// A host's transfer service started on `directory` after another's: a partial body of a
    /// task in the journal, a finished body, and a file of no task. Returns what the new
    /// service's ledger charges the extension once it has recovered, and whether the file of no
    /// task is still there.
    func heldAfterRestart(directory: String) async throws -> (held: Int64, orphanKept: Bool) {
        let clock = RunClock(mode: .virtual, loop: loop)
        let log = EventLog(clock: clock)
        let journal = try Journal(path: directory + "/journal.sqlite")
        let transport = HTTPTransport()
        defer { Task { await transport.shutdown() } }
        try journal.saveSession(
            SessionRecord(
                app: "com.example.app", identifier: "feed", bundle: "com.example.app.widget",
                sendsLaunchEvents: true, isDiscretionary: false, requestTimeout: 60, resourceTimeout: 604_800))
        let first = try TransferService(journal: journal, log: log, clock: clock, directory: directory + "/transfers", transport: transport)
        var ids: [Int64] = []
        for _ in 0..<2 {
            let task = try first.create(
                app: "com.example.app", bundle: "com.example.app.widget", pid: 1,
                TaskRequestPayload(session: "feed", kind: .download, request: HTTPRequestPayload(url: "http://127.0.0.1:1/")))
            ids.append(try #require(task.id))
        }
        let files = directory + "/transfers/"
        try Data(count: 1_000).write(to: URL(fileURLWithPath: files + "task-\(ids[0]).part"))
        try Data(count: 2_000).write(to: URL(fileURLWithPath: files + "task-\(ids[1]).body"))
        try Data(count: 4_000).write(to: URL(fileURLWithPath: files + "task-999.part"))
        let second = try TransferService(
            journal: journal, log: log, clock: clock, directory: directory + "/transfers", transport: transport)
        try second.recover()
        let held = second.ledger.held(by: "com.example.app.widget")
        await second.shutdown()
        return (held, FileManager.default.fileExists(atPath: files + "task-999.part"))
    }

    /// A transfer service on `clock` with its journal in `directory`, and a download of `url`
    /// created and resumed in it.
    private func startDownload(
        _ url: String, directory: String, clock: RunClock
    ) throws -> (
        log: EventLog, journal: Journal, transport: HTTPTransport, transfers: TransferService, task: TaskRecord
    ) {
        let log = EventLog(clock: clock)
        let journal = try Journal(path: directory + "/journal.sqlite")
        let transport = HTTPTransport()
        let transfers = try TransferService(
            journal: journal, log: log, clock: clock, directory: directory + "/transfers", transport: transport)
        try journal.saveSession(
            SessionRecord(
                app: "com.example.app", identifier: "feed", bundle: "com.example.app.widget",
                sendsLaunchEvents: true, isDiscretionary: false, requestTimeout: 60, resourceTimeout: 604_800))
        let created = try transfers.create(
            app: "com.example.app", bundle: "com.example.app.widget", pid: 1,
            TaskRequestPayload(session: "feed", kind: .download, request: HTTPRequestPayload(url: url)))
        try transfers.resume(created)
        return (log, journal, transport, transfers, created)
    }

    /// Starts a download of `url` and cancels it while its attempt is in flight. Returns
    /// whether the clock was held by the request, and whether it still is after the cancel.
    func cancelInFlight(_ url: String, directory: String) async throws -> (heldWhileRunning: Bool, heldAfterCancel: Bool, partialGone: Bool)
    {
        let clock = RunClock(mode: .virtual, loop: loop)
        let (log, journal, transport, transfers, created) = try startDownload(url, directory: directory, clock: clock)
        let started = await clock.advance(to: clock.now + 10_000_000_000, log: log) { $0.kind == .downloadStarted }
        let held = started != nil && clock.isBusy
        let id = try #require(created.id)
        // Part of the body on disk, charged to the extension (this service has no core to tell
        // its progress to: the ledger says it).
        let written = ContinuousClock.now + .seconds(10)
        while transfers.ledger.held(by: "com.example.app.widget") == 0 && ContinuousClock.now < written {
            try await Task.sleep(for: .milliseconds(20))
        }
        let running = try #require(try journal.task(id: id))
        try transfers.cancel(running)
        let heldAfter = clock.isBusy
        // The partial body goes once the cancelled attempt has let go of it, and its charge with it.
        let deadline = ContinuousClock.now + .seconds(10)
        var partialGone = false
        while !partialGone && ContinuousClock.now < deadline {
            partialGone =
                transfers.ledger.held(by: "com.example.app.widget") == 0
                && !FileManager.default.fileExists(atPath: directory + "/transfers/task-\(id).part")
            if !partialGone { try await Task.sleep(for: .milliseconds(20)) }
        }
        await transfers.shutdown()
        await transport.shutdown()
        return (held, heldAfter, partialGone)
    }
}

extension TransferDriver {
    /// Starts a download of `url` (a server that trickles it) on a virtual clock whose requests
    /// hold it at most `limit` of real time, then asks for an hour of virtual time. Returns
    /// whether the request held the clock at first, the virtual time that passed, the real
    /// time it took, and whether the download was still in flight after the hour.
    func trickle(
        _ url: String, directory: String, limit: Duration
    ) async throws -> (
        heldAtFirst: Bool, virtualSeconds: Double, realSeconds: Double, stillInFlight: Bool
    ) {
        let clock = RunClock(mode: .virtual, loop: loop)
        clock.networkHoldLimit = limit
        let (log, _, transport, transfers, _) = try startDownload(url, directory: directory, clock: clock)
        _ = await clock.advance(to: clock.now + 10_000_000_000, log: log) { $0.kind == .downloadStarted }
        let held = clock.isBusy
        let start = clock.now
        let real = ContinuousClock.now
        _ = await clock.advance(to: start + 3_600_000_000_000, log: log, until: nil)
        let virtualSeconds = Double(clock.now - start) / 1e9
        let realSeconds = Double((ContinuousClock.now - real).components.seconds)
        let inFlight = transfers.activeAttempts == 1
        await transfers.shutdown()
        await transport.shutdown()
        return (held, virtualSeconds, realSeconds, inFlight)
    }
}

@Suite("Transfers and the virtual clock")
struct TransferHoldTests {
    @Test(
        "a server that trickles a body holds the virtual clock for a bounded real time: an hour of virtual time passes in seconds while it is in flight",
        .timeLimit(.minutes(2))
    )
    func trickleReleasesTheClock() async throws {
        // A byte every 5 s (real time): never silent long enough for the read timeout. The hold's
        // limit, 5 s, is long enough that the request still holds the clock when the test first
        // looks, on a loaded machine too.
        let (held, virtualSeconds, realSeconds, inFlight) = try await withDriver("transfer-trickle") { driver, server, directory in
            try await driver.trickle(server.url("/bytes/1000?chunk=1&interval=5000"), directory: directory, limit: .seconds(5))
        }
        #expect(held, "the request in flight did not hold the virtual clock at first")
        #expect(virtualSeconds >= 3600)
        #expect(realSeconds < 60, "an hour of virtual time took \(realSeconds) s of real time")
        #expect(inFlight, "the download ended: the test proves nothing")
    }

    @Test("a host that starts again charges each extension with the bodies its tasks left on disk, and removes the files of no task")
    func chargedAfterRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-ledger-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let driver = try TransferDriver()
        defer { driver.loop.shutdown() }
        let (held, orphanKept) = try await driver.heldAfterRestart(directory: directory)
        #expect(held == 3_000, "the partial and the finished body; not the file of no task")
        #expect(!orphanKept, "the file of no task (a host that died before removing it) is removed")
    }

    @Test("a download cancelled while its request is in flight gives the virtual clock back, and its partial body goes")
    func cancelReleasesTheClock() async throws {
        // A slow body (real time): the request is in flight when it is cancelled.
        let (held, heldAfter, partialGone) = try await withDriver("transfer-hold") { driver, server, directory in
            try await driver.cancelInFlight(server.url("/bytes/100000?chunk=1000&interval=1000"), directory: directory)
        }
        #expect(partialGone, "the cancelled download's partial body, or its charge, was left behind")
        #expect(held, "the request in flight did not hold the virtual clock")
        #expect(!heldAfter, "the cancelled download still holds the virtual clock")
    }

    /// Runs `work` with a driver, a fixture server and a directory of its own, and cleans all
    /// three up after, whether `work` returns or throws.
    private func withDriver<T: Sendable>(
        _ name: String, _ work: (TransferDriver, FixtureServer, String) async throws -> T
    ) async throws -> T {
        let server = try await FixtureServer.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let driver = try TransferDriver()
        let result: Result<T, any Error>
        do {
            result = .success(try await work(driver, server, directory))
        } catch {
            result = .failure(error)
        }
        driver.loop.shutdown()
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
        return try result.get()
    }
}
