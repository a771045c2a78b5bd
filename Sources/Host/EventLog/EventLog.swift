import Foundation

/// Where host events go: a JSON-lines file, the terminal trace, in-memory subscribers.
protocol EventSink: AnyObject {
    func write(_ event: HostEvent)
    func close()
}

/// The run's event log. Every event is stamped with the run clock and handed to each sink.
/// Confined to the host's loop thread.
final class EventLog {
    private let clock: RunClock
    private var sinks: [EventSink] = []
    private var subscribers: [UInt64: AsyncStream<HostEvent>.Continuation] = [:]
    /// Called synchronously, on the loop, right after each event is recorded (the host's own
    /// reactions, such as kills armed for a protocol step).
    var observers: [(HostEvent) -> Void] = []
    private var nextSubscriber: UInt64 = 0
    /// Every event of the run, in order (for `explain`, invariants and tests).
    private(set) var history: [HostEvent] = []
    /// Keep the whole history (tests, reports) or only the last `historyLimit` events.
    var historyLimit = Int.max

    init(clock: RunClock) {
        self.clock = clock
    }

    func add(_ sink: EventSink) {
        sinks.append(sink)
    }

    /// Records `name` with `fields` at the run clock's now.
    @discardableResult
    func emit(_ name: String, _ fields: [(String, JSONValue)] = []) -> HostEvent {
        let event = HostEvent(t: clock.nowMilliseconds, name: name, fields: fields)
        history.append(event)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        for sink in sinks { sink.write(event) }
        for continuation in subscribers.values { continuation.yield(event) }
        for observer in observers { observer(event) }
        return event
    }

    /// A stream of the events from now on (and, with `replay`, those already recorded).
    func subscribe(replay: Bool) -> AsyncStream<HostEvent> {
        let id = nextSubscriber
        nextSubscriber += 1
        let (stream, continuation) = AsyncStream<HostEvent>.makeStream(bufferingPolicy: .unbounded)
        if replay { for event in history { continuation.yield(event) } }
        subscribers[id] = continuation
        return stream
    }

    /// Ends every subscriber's stream and closes the sinks.
    func close() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
        for sink in sinks { sink.close() }
        sinks.removeAll()
    }
}

/// Writes each event as one JSON line, flushed as it is written (a killed host loses nothing).
final class JSONLinesFile: EventSink {
    private let handle: FileHandle
    let path: String

    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ event: HostEvent) {
        handle.write(Data((event.jsonLine + "\n").utf8))
    }

    func close() {
        try? handle.close()
    }
}
