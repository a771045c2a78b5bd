import Dispatch
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

// MARK: The host's side: frames other than log lines, and files the host hands over

extension HostEnd {
    /// The next message that is not a log line.
    func receiveSkippingLogs(within seconds: Double = HostEnd.patience) throws -> Message {
        while true {
            let message = try receive(within: seconds)
            if case .log = message { continue }
            return message
        }
    }

    /// The next message that is not a log line, which `extract` must recognise.
    func expect<T>(_ what: String, within seconds: Double = HostEnd.patience, _ extract: (Message) -> T?) throws -> T {
        let message = try receiveSkippingLogs(within: seconds)
        guard let value = extract(message) else {
            throw HostEndError(description: "expected \(what), got \(message)")
        }
        return value
    }

    /// `attachSession` for background session `identifier`, next; returns its configuration.
    @discardableResult
    func expectAttach(_ identifier: String) throws -> SessionConfigurationPayload {
        try expect("attachSession \(identifier)") { message -> SessionConfigurationPayload? in
            if case .attachSession(let payload) = message, payload.identifier == identifier { return payload }
            return nil
        }
    }

    /// `eventHandled` for event `eventID` of session `identifier`, next.
    func expectHandled(_ identifier: String, _ eventID: UInt64) throws {
        try expect("eventHandled \(eventID)") { message -> Void? in
            if case .eventHandled(identifier, eventID, _) = message { return () }
            return nil
        }
    }

    /// `eventsFinished` for session `identifier`, next.
    func expectEventsFinished(_ identifier: String) throws {
        try expect("eventsFinished \(identifier)") { message -> Void? in
            if case .eventsFinished(identifier) = message { return () }
            return nil
        }
    }

    /// Proves nothing else was sent before: a ping answered by the very next frame (log lines aside).
    func expectNothingMore(_ number: UInt64 = 99) throws {
        try send(.ping(number))
        try expect("pong \(number)") { message -> Void? in
            if case .pong(number) = message { return () }
            return nil
        }
    }
}

/// A fresh file, as the host leaves a finished download in the container (the SDK removes it
/// when `didFinishDownloadingTo` returns, so nothing is left behind).
func downloadedFile(_ contents: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("sandglass-network-test-\(UUID().uuidString).download").path
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// Where the SDK makes a finished download's file `name` for `session` ("" for an inline task).
func materialisedDownload(_ name: String, session: String, container: String) -> String {
    session.isEmpty ? container + "/tmp/" + name : container + "/Library/Caches/com.apple.nsurlsessiond/Downloads/" + name
}

/// A fresh background identifier that the test widget's closure overload accepts.
func backgroundIdentifier(_ name: String) -> String {
    "com.example.tests.bg.\(name).\(UUID().uuidString.prefix(8))"
}

/// The response a test host reports.
func okResponse(_ url: String, length: Int64 = -1, contentType: String = "application/octet-stream") -> HTTPResponsePayload {
    HTTPResponsePayload(url: url, statusCode: 200, headers: [HeaderField("Content-Type", contentType)], expectedContentLength: length)
}

// MARK: A delegate that records its calls

/// One delegate call, with where it ran.
enum DelegateCall: Sendable, Equatable {
    case didWriteData(task: Int, written: Int64, total: Int64, expected: Int64)
    /// The file's contents as read during the call (`nil`: unreadable).
    case didFinishDownloading(task: Int, contents: String?, path: String)
    case didComplete(task: Int, errorCode: Int?, statusCode: Int?)
    case didReceiveData(task: Int, text: String)
    case didFinishEvents
    case didBecomeInvalid(errorCode: Int?)
}

/// Records every delegate call and whether it ran on the session's delegate queue; tests wait
/// for calls with a deadline.
final class RecordingDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDataDelegate, @unchecked Sendable {
    private let recorded = Mutex<[DelegateCall]>([])
    private let offQueue = Mutex<[String]>([])
    private let signal = DispatchSemaphore(value: 0)
    /// Called during `urlSessionDidFinishEvents`, as an app calls its stored completion there.
    let onFinishEvents = Mutex<(@Sendable () -> Void)?>(nil)

    var calls: [DelegateCall] { recorded.withLock { $0 } }
    /// Calls that ran off the session's delegate queue, or on the IPC reader thread.
    var misplacedCalls: [String] { offQueue.withLock { $0 } }

    /// The first `count` calls, waiting at most `seconds` for them.
    func waitForCalls(_ count: Int, within seconds: Double = HostEnd.patience) throws -> [DelegateCall] {
        let deadline = DispatchTime.now() + seconds
        while recorded.withLock({ $0.count }) < count {
            guard signal.wait(timeout: deadline) == .success else {
                throw HostEndError(description: "\(count) delegate calls expected within \(seconds) s; got \(calls)")
            }
        }
        return Array(calls.prefix(count))
    }

    private func record(_ call: DelegateCall, _ session: URLSession) {
        if OperationQueue.current !== session.delegateQueue || Thread.current.name == "sandglass.ipc-reader" {
            offQueue.withLock { $0.append("\(call)") }
        }
        recorded.withLock { $0.append(call) }
        signal.signal()
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        record(
            .didWriteData(
                task: downloadTask.taskIdentifier, written: bytesWritten, total: totalBytesWritten,
                expected: totalBytesExpectedToWrite), session)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let contents = try? String(contentsOf: location, encoding: .utf8)
        record(.didFinishDownloading(task: downloadTask.taskIdentifier, contents: contents, path: location.path), session)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let code = error.map { ($0 as NSError).code }
        let status = (task.response as? HTTPURLResponse)?.statusCode
        record(.didComplete(task: task.taskIdentifier, errorCode: code, statusCode: status), session)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        record(.didReceiveData(task: dataTask.taskIdentifier, text: String(decoding: data, as: UTF8.self)), session)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        record(.didFinishEvents, session)
        onFinishEvents.withLock { $0 }?()
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        record(.didBecomeInvalid(errorCode: error.map { ($0 as NSError).code }), session)
    }
}

// MARK: A widget that takes background URL-session events

/// What the widget's background-session handlers saw; each test sets what they do.
final class BackgroundEventsProbe: Sendable {
    /// One call of a handler.
    struct Call: Sendable {
        let identifier: String
        /// Whether it ran on the main queue (the main actor's, in an extension process).
        let onMainQueue: Bool
        /// The completion the handler got (`nil` for `backgroundTask`, whose return completes).
        let completion: (@Sendable () -> Void)?
    }

    static let shared = BackgroundEventsProbe()

    /// Marks the main queue, which the test runner may serve from a thread other than the first.
    private let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private let calls = Mutex<[Call]>([])
    private let signal = DispatchSemaphore(value: 0)
    /// What the handler does besides recording: recreate the session, typically.
    let onEvents = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Released to let a `backgroundTask` action return.
    let actionMayReturn = DispatchSemaphore(value: 0)

    func reset() {
        calls.withLock { $0 = [] }
        onEvents.withLock { $0 = nil }
    }

    func handle(_ identifier: String, completion: (@Sendable () -> Void)?) {
        let onMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == true
        calls.withLock { $0.append(Call(identifier: identifier, onMainQueue: onMainQueue, completion: completion)) }
        onEvents.withLock { $0 }?(identifier)
        signal.signal()
    }

    /// Handler calls not taken with ``nextCall(within:)`` yet.
    var pendingCalls: Int { calls.withLock { $0.count } }

    /// The next handler call, waiting at most `seconds`.
    func nextCall(within seconds: Double = HostEnd.patience) throws -> Call {
        guard signal.wait(timeout: .now() + seconds) == .success else {
            throw HostEndError(description: "no background-events handler ran within \(seconds) s")
        }
        return calls.withLock { $0.removeFirst() }
    }
}

/// Apple's `() -> Void` completion, which is not `Sendable`; the SDK's may be called from any thread.
private struct UncheckedCompletion: @unchecked Sendable {
    let call: () -> Void
}

struct BackgroundEventsWidget: Widget {
    nonisolated static let namedIdentifier = "com.example.tests.named"
    nonisolated static let taskIdentifier = "com.example.tests.task"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Downloads", provider: ScoreProvider())
            .onBackgroundURLSessionEvents(matching: Self.namedIdentifier) { identifier, completion in
                let completion = UncheckedCompletion(call: completion)
                BackgroundEventsProbe.shared.handle(identifier) { completion.call() }
            }
            .onBackgroundURLSessionEvents { identifier in
                identifier.hasPrefix("com.example.tests.bg.")
            } _: { identifier, completion in
                let completion = UncheckedCompletion(call: completion)
                BackgroundEventsProbe.shared.handle(identifier) { completion.call() }
            }
            .backgroundTask(.urlSession(Self.taskIdentifier)) {
                BackgroundEventsProbe.shared.handle(Self.taskIdentifier, completion: nil)
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        BackgroundEventsProbe.shared.actionMayReturn.wait()
                        continuation.resume()
                    }
                }
            }
    }
}

extension RuntimeHarness {
    /// A harness serving ``BackgroundEventsWidget``, installed as the process's runtime (the
    /// connection `URLSession` speaks on), after the handshake.
    static func network() async throws -> RuntimeHarness {
        let widgets = await MainActor.run { descriptors(of: BackgroundEventsWidget()) }
        let harness = try RuntimeHarness(widgets: widgets, installAsCurrent: true)
        try harness.handshake()
        BackgroundEventsProbe.shared.reset()
        return harness
    }

    /// Plays the host's side of `createTask`: checks the request and answers `taskCreated`.
    @discardableResult
    func answerCreateTask(with taskIdentifier: Int) throws -> TaskRequestPayload {
        let (id, payload) = try host.expect("createTask") { message -> (RequestID, TaskRequestPayload)? in
            if case .createTask(let id, let payload) = message { return (id, payload) }
            return nil
        }
        #expect(id.rawValue >= HostRequests.firstID)
        try host.send(.taskCreated(id, taskIdentifier: taskIdentifier))
        return payload
    }

    /// Plays the host's side of `resume()`: `createTask` answered, then `resumeTask` expected.
    @discardableResult
    func answerResume(of task: URLSessionTask, with taskIdentifier: Int) async throws -> TaskRequestPayload {
        let resumed = OwnThread { task.resume() }
        let payload = try answerCreateTask(with: taskIdentifier)
        await resumed.value
        try host.expect("resumeTask \(taskIdentifier)") { message -> Void? in
            if case .resumeTask(payload.session, taskIdentifier) = message { return () }
            return nil
        }
        return payload
    }
}
