import SandglassHost

/// Turns host events into Chrome trace events (the JSON that Perfetto and `chrome://tracing`
/// open): one track per extension process, its activations as complete slices (`ph: "X"`) on
/// one or more "activations" threads (overlapping activations get a thread each), its
/// lifetime as a slice on its "lifecycle" thread with kills and other events as instants, and
/// the host's own events (downloads as slices, a counter of live extensions) on a "sandglass
/// host" track. Timestamps are the run clock's, in microseconds.
///
/// The converter is fed one event at a time, so a trace can be written while the run goes on:
///
/// ```swift
/// var converter = TraceEventConverter()
/// for event in events { lines += converter.convert(event) }
/// lines += converter.finish()
/// ```
public struct TraceEventConverter: Sendable {
    /// Added to every pid (keeps the pids of merged runs apart).
    public let pidOffset: Int64
    /// Named on the host's track (for example a shard).
    public let label: String?

    private var hostPid: Int64 = 0
    private var hostNamed = false
    private var lastT = 0.0
    private var spawnedAt: [Int64: (t: Double, bundle: String)] = [:]
    private var lanes: [Int64: [Bool]] = [:] // pid → busy activation lanes
    private var namedLanes: [Int64: Int] = [:]
    private var openActivations: [String: (t: Double, lane: Int, event: HostEvent)] = [:]
    private var downloadLanes: [Bool] = []
    private var openDownloads: [String: (t: Double, lane: Int)] = [:]
    private var live = 0

    /// Thread ids within a process track.
    private static let lifecycleThread: Int64 = 1
    private static let firstActivationThread: Int64 = 2
    private static let firstDownloadThread: Int64 = 100

    /// A converter for one run.
    public init(pidOffset: Int64 = 0, label: String? = nil) {
        self.pidOffset = pidOffset
        self.label = label
    }

    /// The trace events (JSON objects, one per string) for `event`.
    public mutating func convert(_ event: HostEvent) -> [String] {
        lastT = max(lastT, event.t)
        var out: [String] = []
        if !hostNamed {
            hostNamed = true
            if event.kind == .runStart, let pid = event.int("pid") { hostPid = pid + pidOffset }
            out.append(Self.metadata("process_name", pid: hostPid, tid: nil, name: "sandglass host" + (label.map { " · \($0)" } ?? "")))
            out.append(Self.metadata("process_sort_index", pid: hostPid, tid: nil, sortIndex: 0))
            out.append(Self.metadata("thread_name", pid: hostPid, tid: Self.lifecycleThread, name: "host events"))
        }
        let pid = event.int("pid").map { $0 &+ pidOffset }
        switch event.kind {
        case .spawned:
            guard let pid else { break }
            let bundle = event.bundle ?? "?"
            spawnedAt[pid] = (event.t, bundle)
            lanes[pid] = []
            live += 1
            out.append(Self.metadata("process_name", pid: pid, tid: nil, name: "\(bundle) · pid \(pid - pidOffset)"))
            out.append(Self.metadata("thread_name", pid: pid, tid: Self.lifecycleThread, name: "lifecycle"))
            out.append(instant(event, pid: pid, tid: Self.lifecycleThread, scope: "t"))
            out.append(counter(event.t))
        case .activationStart:
            guard let pid else { break }
            var busy = lanes[pid] ?? []
            let lane = busy.firstIndex(of: false) ?? busy.count
            if lane == busy.count { busy.append(true) } else { busy[lane] = true }
            lanes[pid] = busy
            if lane >= namedLanes[pid, default: 0] {
                namedLanes[pid] = lane + 1
                out.append(
                    Self.metadata(
                        "thread_name", pid: pid, tid: Self.firstActivationThread + Int64(lane),
                        name: lane == 0 ? "activations" : "activations \(lane + 1)"))
            }
            openActivations["\(pid)/\(event.int("activation") ?? 0)"] = (event.t, lane, event)
        case .activationEnd:
            guard let pid else { break }
            let key = "\(pid)/\(event.int("activation") ?? 0)"
            guard let open = openActivations.removeValue(forKey: key) else {
                out.append(instant(event, pid: pid, tid: Self.lifecycleThread, scope: "t"))
                break
            }
            if let count = lanes[pid]?.count, open.lane < count { lanes[pid]?[open.lane] = false }
            out.append(activationSlice(start: open.event, end: event, at: open.t, until: event.t, pid: pid, lane: open.lane))
        case .killed:
            out.append(
                instant(
                    event, pid: pid ?? hostPid, tid: Self.lifecycleThread, scope: pid == nil ? "t" : "p",
                    name: "killed: \(event.string("reason") ?? "?")"))
        case .exited:
            guard let pid else { break }
            out.append(instant(event, pid: pid, tid: Self.lifecycleThread, scope: "t"))
            if let spawned = spawnedAt.removeValue(forKey: pid) {
                live -= 1
                out.append(processSlice(pid: pid, from: spawned.t, to: event.t, end: event))
                out.append(counter(event.t))
            }
        case .downloadStarted:
            let key = downloadKey(event)
            guard openDownloads[key] == nil else { break }
            let lane = downloadLanes.firstIndex(of: false) ?? downloadLanes.count
            if lane == downloadLanes.count {
                downloadLanes.append(true)
                out.append(
                    Self.metadata(
                        "thread_name", pid: hostPid, tid: Self.firstDownloadThread + Int64(lane),
                        name: lane == 0 ? "downloads" : "downloads \(lane + 1)"))
            } else {
                downloadLanes[lane] = true
            }
            openDownloads[key] = (event.t, lane)
        case .downloadFinished, .downloadFailed:
            out.append(instant(event, pid: hostPid, tid: Self.lifecycleThread, scope: "t"))
            if let open = openDownloads.removeValue(forKey: downloadKey(event)) {
                downloadLanes[open.lane] = false
                out.append(
                    slice(
                        name: "download task #\(event.int("taskId") ?? 0)", category: "download", pid: hostPid,
                        tid: Self.firstDownloadThread + Int64(open.lane), from: open.t, to: event.t,
                        args: Self.arguments(of: event) + [("result", .string(event.kind == .downloadFinished ? "finished" : "failed"))]))
            }
        case .downloadProgress:
            break // many and small: the download's slice says enough
        default:
            out.append(instant(event, pid: pid ?? hostPid, tid: Self.lifecycleThread, scope: "t"))
        }
        return out
    }

    /// Slices for what was still open when the run's events ended (at the last event's time).
    public mutating func finish() -> [String] {
        var out: [String] = []
        for (key, open) in openActivations.sorted(by: { $0.value.t < $1.value.t }) {
            let pid = Int64(key.split(separator: "/")[0])!
            out.append(activationSlice(start: open.event, end: nil, at: open.t, until: lastT, pid: pid, lane: open.lane))
        }
        openActivations.removeAll()
        for (pid, spawned) in spawnedAt.sorted(by: { $0.key < $1.key }) {
            out.append(processSlice(pid: pid, from: spawned.t, to: lastT, end: nil))
        }
        spawnedAt.removeAll()
        for (_, open) in openDownloads.sorted(by: { $0.value.t < $1.value.t }) {
            out.append(
                slice(
                    name: "download (unfinished)", category: "download", pid: hostPid,
                    tid: Self.firstDownloadThread + Int64(open.lane), from: open.t, to: lastT, args: []))
        }
        openDownloads.removeAll()
        return out
    }

    // MARK: events

    private func activationSlice(start: HostEvent, end: HostEvent?, at t0: Double, until t1: Double, pid: Int64, lane: Int) -> String {
        let kind = start.string("kind") ?? "?"
        let name = kind + (start.string("widget").map { " \($0)" } ?? start.string("session").map { " \($0)" } ?? "")
        var args = Self.arguments(of: start).filter { $0.0 != "kind" }
        if let end {
            for (key, value) in Self.arguments(of: end) where !args.contains(where: { $0.0 == key }) { args.append((key, value)) }
        } else {
            args.append(("outcome", "unfinished when the log ends"))
        }
        return slice(
            name: name, category: "activation", pid: pid, tid: Self.firstActivationThread + Int64(lane), from: t0, to: t1, args: args)
    }

    private func processSlice(pid: Int64, from t0: Double, to t1: Double, end: HostEvent?) -> String {
        let args = end.map(Self.arguments(of:)) ?? [("state", "still running when the log ends")]
        return slice(name: "process", category: "process", pid: pid, tid: Self.lifecycleThread, from: t0, to: t1, args: args)
    }

    private func slice(
        name: String, category: String, pid: Int64, tid: Int64, from t0: Double, to t1: Double,
        args: [(String, JSONValue)]
    ) -> String {
        JSONValue.object([
            ("name", .string(name)), ("cat", .string(category)), ("ph", "X"),
            ("ts", .double(Self.micro(t0))), ("dur", .double(max(0, Self.micro(t1) - Self.micro(t0)))),
            ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(args))
        ]).serialized
    }

    private func instant(_ event: HostEvent, pid: Int64, tid: Int64, scope: String, name: String? = nil) -> String {
        JSONValue.object([
            ("name", .string(name ?? event.name)), ("cat", .string(event.name.split(separator: ".").first.map(String.init) ?? "event")),
            ("ph", "i"), ("s", .string(scope)), ("ts", .double(Self.micro(event.t))),
            ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(Self.arguments(of: event)))
        ]).serialized
    }

    private func counter(_ t: Double) -> String {
        JSONValue.object([
            ("name", "live extensions"), ("ph", "C"), ("ts", .double(Self.micro(t))), ("pid", .int(hostPid)),
            ("args", .object([("processes", .int(Int64(live)))]))
        ]).serialized
    }

    private static func metadata(_ kind: String, pid: Int64, tid: Int64?, name: String? = nil, sortIndex: Int? = nil) -> String {
        var fields: [(String, JSONValue)] = [("name", .string(kind)), ("ph", "M"), ("pid", .int(pid))]
        if let tid { fields.append(("tid", .int(tid))) }
        if let name { fields.append(("args", .object([("name", .string(name))]))) }
        if let sortIndex { fields.append(("args", .object([("sort_index", .int(Int64(sortIndex)))]))) }
        return JSONValue.object(fields).serialized
    }

    private func downloadKey(_ event: HostEvent) -> String {
        "\(event.bundle ?? "?")/\(event.string("session") ?? "")/\(event.int("taskId") ?? 0)"
    }

    /// The event's fields as arguments — without its pid, and with a timeline's entries
    /// counted rather than copied (their texts stay).
    private static func arguments(of event: HostEvent) -> [(String, JSONValue)] {
        event.fields.compactMap { key, value in
            switch key {
            case "pid", "killedAtNs", "reapedAtNs": return nil
            case "entries", "entryDates":
                if case .array(let items) = value { return (key, .int(Int64(items.count))) }
                return nil
            default: return (key, value)
            }
        }
    }

    /// Run-clock milliseconds as trace microseconds (whole nanoseconds at most).
    private static func micro(_ ms: Double) -> Double {
        (ms * 1_000_000).rounded() / 1000
    }
}
