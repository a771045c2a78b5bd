import Foundation
import SandglassIPC

/// Requests of `URLSession.shared`, `.default` and `.ephemeral` sessions: performed by the host
/// for the live process (the sandbox gives it no internet socket) and streamed back to it. They
/// belong to the process: when it dies or is killed, they are cancelled — the seed's warning
/// that "a request may not have enough time to complete before the system halts the widget
/// extension". Confined to the host's loop thread.
final class InlineRequests {
    /// How the host hears from requests running off the loop.
    weak var core: HostCore?

    private struct Pending {
        var payload: TaskRequestPayload
        var task: Task<Void, Never>?
        /// What the request takes in a frame, charged to its process while it is pending.
        var bytes: Int
    }

    private let log: EventLog
    private let clock: RunClock
    /// Where download bodies are written: the host's own (mode 0700), never the container.
    private let directory: String
    private var requests: [Int32: [Int: Pending]] = [:]
    private var nextIdentifier: [Int32: Int] = [:]
    private let transport: HTTPTransport
    /// What the host holds for each extension's downloads: an inline body while it is written.
    private let ledger: DownloadLedger

    init(log: EventLog, clock: RunClock, directory: String, transport: HTTPTransport, ledger: DownloadLedger) throws {
        self.ledger = ledger
        self.log = log
        self.clock = clock
        self.directory = directory
        self.transport = transport
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw HostSetupError(description: "could not create \(directory) for downloads: \(String(cString: strerror(errno)))")
        }
        _ = chmod(directory, 0o700)
        // Bodies of a host that died mid-request: their processes died with it.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Requests in flight now.
    var inFlight: Int { requests.values.reduce(0) { $0 + $1.values.filter { $0.task != nil }.count } }

    /// Inline tasks of `pid` created and not yet ended.
    func count(of pid: Int32) -> Int { requests[pid]?.count ?? 0 }

    /// Bytes of the requests of `pid`'s inline tasks not yet ended.
    func bytes(of pid: Int32) -> Int { requests[pid]?.values.reduce(0) { $0 + $1.bytes } ?? 0 }

    /// A new inline task of `pid`, whose request takes `size` bytes in a frame; returns its
    /// identifier (per process).
    func create(
        _ payload: TaskRequestPayload, size: Int, fieldBytes: Int = MessageLimits.fieldBytes, ext: ManagedExtension, pid: Int32
    ) -> Int {
        clock.assertInLoop()
        let id = (nextIdentifier[pid] ?? 0) + 1
        nextIdentifier[pid] = id
        requests[pid, default: [:]][id] = Pending(payload: payload, bytes: size)
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))), ("session", ""),
            ("taskId", .int(Int64(id))), ("url", .string(MessageLimits.field(payload.request.url, to: fieldBytes))),
            ("taskKind", .string(payload.kind == .download ? "download" : "data")), ("inline", true)
        ]
        if let notSent = RequestPolicy.headersNotSentField(payload.request) { fields.append(notSent) }
        log.emit(.taskCreated, fields)
        return id
    }

    /// `resume()`: performs the request, streaming the response to the process.
    func resume(_ id: Int, ext: ManagedExtension, pid: Int32) {
        clock.assertInLoop()
        guard var pending = requests[pid]?[id], pending.task == nil else { return }
        log.emit(
            .taskStarted,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))), ("taskId", .int(Int64(id))),
                ("inline", true)
            ])
        let attempt = HTTPAttempt(
            transport: transport, readTimeout: .seconds(60), request: pending.payload.request, resumeFrom: 0, validator: nil,
            owner: .inline(app: ext.app.bundleIdentifier, pid: pid))
        let sink = InlineSink(
            core: core, pid: pid, taskIdentifier: id,
            downloadPath: pending.payload.kind == .download ? directory + "/" + Self.fileName(pid: pid, task: id) : nil,
            quota: DownloadLedger.Quota(ledger: ledger, bundle: ext.identifier, bytes: Int64(ext.budgets.containerBytes)))
        let bundle = ext.identifier
        pending.task = Task { [weak core] in
            let result = await attempt.run(into: sink)
            sink.close()
            await core?.inlineRequestEnded(pid: pid, taskIdentifier: id, result: result, downloadPath: sink.downloadPath, bundle: bundle)
        }
        requests[pid]?[id] = pending
    }

    /// `cancel()` from the extension.
    func cancel(_ id: Int, pid: Int32) {
        clock.assertInLoop()
        requests[pid]?[id]?.task?.cancel()
    }

    /// The name of an inline download's file, in the host's directory and then in the container's `tmp`.
    static func fileName(pid: Int32, task: Int) -> String { "CFNetworkDownload_inline_\(pid)_\(task).tmp" }

    /// The request ended: tells the process, unless it is gone. A download's body goes to it
    /// as an open descriptor (the host's file is unlinked at once: the descriptor holds it).
    func ended(
        pid: Int32, taskIdentifier id: Int, result: HTTPAttempt.Result, downloadPath: String?, process: ExtensionProcess?,
        ext: ManagedExtension?
    ) {
        clock.assertInLoop()
        var body: Int32?
        if let downloadPath {
            let fd = open(downloadPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            body = fd >= 0 ? fd : nil
            ledger.removeFile(downloadPath)
        }
        defer { if let body { close(body) } }
        guard requests[pid]?.removeValue(forKey: id) != nil else { return }
        guard let process, process.pid == pid, let ext else { return }
        switch result {
        case .completed(let response, _):
            if downloadPath != nil {
                process.channel.send(
                    .downloadFinished(session: "", taskIdentifier: id, nil, file: Self.fileName(pid: pid, task: id), response),
                    passing: body.map { fcntl($0, F_DUPFD_CLOEXEC, 0) })
            }
            process.channel.send(.taskCompleted(session: "", taskIdentifier: id, nil, error: nil, response))
            log.emit(
                .taskFinished,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))), ("taskId", .int(Int64(id))),
                    ("inline", true), ("status", .int(Int64(response.statusCode)))
                ])
        case .failed(let error, _, let response, _):
            process.channel.send(.taskCompleted(session: "", taskIdentifier: id, nil, error: error, response))
            log.emit(
                .taskFailed,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))), ("taskId", .int(Int64(id))),
                    ("inline", true), ("error", .string(error.message)), ("code", .int(Int64(error.code)))
                ])
        }
    }

    /// The process ended: its requests die with it.
    func processEnded(_ pid: Int32, bundle: String) {
        clock.assertInLoop()
        guard let pending = requests.removeValue(forKey: pid) else { return }
        nextIdentifier.removeValue(forKey: pid)
        for (id, request) in pending where request.task != nil {
            request.task?.cancel()
            log.emit(
                .taskCancelled,
                [
                    ("bundle", .string(bundle)), ("pid", .int(Int64(pid))), ("taskId", .int(Int64(id))),
                    ("inline", true), ("url", .string(MessageLimits.field(request.payload.request.url, to: MessageLimits.shortFieldBytes))),
                    ("detail", "the process ended before its inline request did")
                ])
        }
    }

    /// Cancels every request (host shutdown); the transport is the network service's to shut down.
    func shutdown() async {
        clock.assertInLoop()
        let running = requests.values.flatMap { $0.values.compactMap(\.task) }
        requests.removeAll()
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

}

/// Streams an inline response to the process (data tasks) or to a file of the host's, passed
/// to the process when it is complete (download tasks).
final class InlineSink: HTTPAttempt.Sink, @unchecked Sendable {
    private weak var core: HostCore?
    private let pid: Int32
    private let taskIdentifier: Int
    let downloadPath: String?
    private var file: FileSink?

    init(core: HostCore?, pid: Int32, taskIdentifier: Int, downloadPath: String?, quota: DownloadLedger.Quota) {
        self.core = core
        self.pid = pid
        self.taskIdentifier = taskIdentifier
        self.downloadPath = downloadPath
        if let downloadPath {
            file = FileSink(path: downloadPath, existing: 0) { _, _ in }
            file?.quota = quota
        }
    }

    func begin(_ response: HTTPResponsePayload, resumed: Bool) async throws {
        try await file?.begin(response, resumed: false)
        if file == nil { await core?.inlineMessage(pid: pid, .taskResponse(session: "", taskIdentifier: taskIdentifier, response)) }
    }

    func write(_ bytes: [UInt8]) async throws {
        if let file {
            try await file.write(bytes)
        } else {
            await core?.inlineMessage(pid: pid, .taskData(session: "", taskIdentifier: taskIdentifier, bytes))
        }
    }

    func close() {
        file?.close()
    }
}
