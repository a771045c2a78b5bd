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
    private var sinks: [any EventSink] = []
    private var subscribers: [UInt64: AsyncStream<HostEvent>.Continuation] = [:]
    /// Called synchronously, on the loop, right after each event is recorded (the host's own
    /// reactions, such as kills armed for a protocol step).
    var observers: [(HostEvent) -> Void] = []
    private var nextSubscriber: UInt64 = 0
    private var keyedObservers: [UInt64: (HostEvent) -> Void] = [:]
    /// The events kept in memory: `storage[historyStart...]` (those before left the history and
    /// are removed in batches, so that a bounded history costs O(1) an event).
    private var storage: [HostEvent] = []
    private var historyStart = 0
    /// The approximate bytes of the events in the history.
    private(set) var historyBytes = 0
    /// Keep the whole history (tests, reports) or only the last `historyLimit` events.
    var historyLimit = Int.max
    /// And at most about this many bytes of them (their JSON).
    var historyByteLimit = Int.max
    /// Events emitted so far (a sequence number for the next one).
    private(set) var emittedCount = 0

    /// Every event of the run still in memory, in order (for `explain`, invariants and tests).
    var history: [HostEvent] { Array(storage[historyStart...]) }

    /// The events from sequence number `sequence` on that are still in the history.
    func events(since sequence: Int) -> ArraySlice<HostEvent> {
        clock.assertInLoop()
        let first = emittedCount - (storage.count - historyStart)
        return storage[(max(sequence, first) - first + historyStart)...]
    }

    /// The sequence number of the event at `index` of a slice from ``events(since:)``.
    func sequenceNumber(at index: Int) -> Int {
        emittedCount - storage.count + index
    }

    init(clock: RunClock) {
        self.clock = clock
    }

    /// Stops a debug build when called off the host's loop thread (the clock's, the loop's).
    func assertInLoop(file: StaticString = #file, line: UInt = #line) {
        clock.assertInLoop(file: file, line: line)
    }

    func add(_ sink: any EventSink) {
        clock.assertInLoop()
        sinks.append(sink)
    }

    /// Records `name` with `fields` at the run clock's now (or at run time `instant`, ns, when an
    /// event must carry exactly the instant a decision was made at).
    @discardableResult
    func emit(_ name: EventName, _ fields: [(String, JSONValue)] = [], at instant: UInt64? = nil) -> HostEvent {
        clock.assertInLoop()
        let event = HostEvent(t: instant.map { Double($0) / 1e6 } ?? clock.nowMilliseconds, name: name.rawValue, fields: fields)
        storage.append(event)
        historyBytes += event.approximateBytes
        emittedCount += 1
        while storage.count - historyStart > historyLimit || (historyBytes > historyByteLimit && storage.count - historyStart > 1) {
            historyBytes -= storage[historyStart].approximateBytes
            historyStart += 1
        }
        if historyStart >= 1024 && historyStart * 2 >= storage.count {
            storage.removeFirst(historyStart)
            historyStart = 0
        }
        for sink in sinks { sink.write(event) }
        for continuation in subscribers.values { continuation.yield(event) }
        if !keyedObservers.isEmpty {
            for key in keyedObservers.keys.sorted() { keyedObservers[key]?(event) }
        }
        for observer in observers { observer(event) }
        return event
    }

    /// Calls `body` on the loop with every event from now on, as it is emitted (before anything
    /// else happens), until ``removeObserver(_:)``.
    func observe(_ body: @escaping (HostEvent) -> Void) -> UInt64 {
        clock.assertInLoop()
        let id = nextSubscriber
        nextSubscriber += 1
        keyedObservers[id] = body
        return id
    }

    func removeObserver(_ id: UInt64) {
        clock.assertInLoop()
        keyedObservers.removeValue(forKey: id)
    }

    /// A stream of the events from now on (and, with `replay`, those already recorded).
    func subscribe(replay: Bool) -> AsyncStream<HostEvent> {
        clock.assertInLoop()
        let id = nextSubscriber
        nextSubscriber += 1
        let (stream, continuation) = AsyncStream<HostEvent>.makeStream(bufferingPolicy: .unbounded)
        if replay { for event in storage[historyStart...] { continuation.yield(event) } }
        subscribers[id] = continuation
        return stream
    }

    /// Ends every subscriber's stream and closes the sinks.
    func close() {
        clock.assertInLoop()
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
        observers.removeAll()
        keyedObservers.removeAll()
        for sink in sinks { sink.close() }
        sinks.removeAll()
    }
}

/// Writes each event as one JSON line, flushed as it is written (a killed host loses nothing).
/// The file is opened for appending (`O_APPEND`): a log rotated by copying and truncating it
/// (logrotate's `copytruncate`) goes on from its new end, not from the old offset past a hole.
final class JSONLinesFile: EventSink {
    private let handle: FileHandle
    let path: String

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let why = "cannot write the event log \(path): \(String(cString: strerror(errno)))"
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: why])
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ event: HostEvent) {
        handle.write(Data((event.jsonLine + "\n").utf8))
    }

    func close() {
        try? handle.close()
    }
}
