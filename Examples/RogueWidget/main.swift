// RogueWidget: an extension that speaks the IPC protocol itself, without the SDK, to attack
// the host with what the SDK would never send: floods of log frames, reload requests and
// requests, inline requests to schemes other than http(s), and an inline download it never
// reads. The attack is chosen by the last component of its bundle identifier
// (SANDGLASS_BUNDLE_IDENTIFIER); ROGUE_UNIX_URL, ROGUE_HTTP_URL and ROGUE_DOWNLOAD_URL
// name what it fetches. Used by the containment tests; never a model of how to write an extension.
import Glibc
import SandglassIPC

func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
let identifier = env("SANDGLASS_BUNDLE_IDENTIFIER") ?? "unknown"
let attack = String(identifier.split(separator: ".").last ?? "")

/// Writes `message` whole to the host's socket (fd 3); exits when the host is gone.
func send(_ message: Message) {
    writeAll(Frame.encode(message))
}

/// Writes `bytes` whole to the host's socket (fd 3); exits when the host is gone.
func writeAll(_ bytes: [UInt8]) {
    if !writeAll(bytes, to: 3) { _exit(0) }
}

/// Writes `bytes` whole to descriptor `fd`; false when it cannot.
@discardableResult
func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
    }
    return true
}

/// Reads and discards what the host sends, forever (requests go unanswered).
func drain() -> Never {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(3, $0.baseAddress, $0.count) }
        if n == 0 || (n < 0 && errno != EINTR) { _exit(0) }
    }
}

/// An inline data task (session "") for `url`, resumed.
func fetch(_ url: String, method: String = "GET", headers: [HeaderField] = []) {
    let request = HTTPRequestPayload(url: url, method: method, headers: headers)
    send(.createTask(RequestID(1), TaskRequestPayload(session: "", kind: .data, request: request)))
    send(.resumeTask(session: "", taskIdentifier: 1))
}

/// Reads the host's frames and hands each to `handle`, forever (exits when the host is gone).
func serve(_ handle: (Message) -> Void) -> Never {
    var decoder = FrameDecoder()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(3, $0.baseAddress, $0.count) }
        if n == 0 || (n < 0 && errno != EINTR) { _exit(0) }
        guard n > 0 else { continue }
        decoder.append(buffer[0..<n])
        while let message = try? decoder.next() { handle(message) }
    }
}

/// Answers as a widget, forever: `timeline` to each timeline request (then `afterTimeline`),
/// `entry` to each placeholder and snapshot, and pings; any other message goes to `otherwise`.
func serveAsWidget(
    entry: EntryPayload, timeline: TimelinePayload, otherwise: @escaping (Message) -> Void = { _ in },
    afterTimeline: @escaping () -> Void = {}
) -> Never {
    serve { message in
        switch message {
        case .timelineRequest(let request, _):
            send(.timelineReply(request, timeline))
            afterTimeline()
        case .placeholderRequest(let request, _), .snapshotRequest(let request, _):
            send(.entryReply(request, entry))
        case .ping(let value):
            send(.pong(value))
        default:
            otherwise(message)
        }
    }
}

/// Sends `request` to the Unix socket at `path` and returns the answer's first line, or what failed.
func askControl(_ path: String, _ request: String) -> String {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "socket failed, errno \(errno)" }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { return "connect failed, errno \(errno)" }
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return "write failed, errno \(errno)" }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !answer.contains(UInt8(ascii: "\n")) {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        answer += buffer[0..<n]
    }
    return answer.isEmpty ? "closed without an answer" : String(decoding: answer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}

/// Dates and durations no clock reaches — NaN, infinity, 10^300 s, 10^20 s since 1970 (past
/// the 584 years a count of nanoseconds holds) — wherever the protocol carries one.
let extremes: [Double] = [.nan, .infinity, -.infinity, 1e300, 1e20]

send(
    .hello(
        Hello(
            // An impostor (ROGUE_IMPOSTOR) names a bundle of 512 KiB of control characters, for the
            // host's refusal to repeat in its log (3 MB as written).
            bundleIdentifier: attack == "impostor" && env("ROGUE_IMPOSTOR") != nil
                ? String(repeating: "\u{1}", count: 512 << 10) : identifier, role: attack == "todaydates" ? .today : .widgetKit,
            widgets: attack == "todaydates"
                ? []
                // A fanout: 128 kinds of 200 control characters each (ROGUE_FANOUT).
                : attack == "fanout" && env("ROGUE_FANOUT") != nil
                    ? (0..<128).map {
                        WidgetDescription(kind: String(repeating: "\u{1}", count: 200) + "\($0)", supportedFamilies: ["systemSmall"])
                    }
                    // A collider: two widgets whose names run together — kind "a/b" in family "c",
                    // kind "a" in family "b/c" — as bundle/kind/family.
                    : attack == "collider"
                        ? [
                            WidgetDescription(kind: "a/b", supportedFamilies: ["c"]),
                            WidgetDescription(kind: "a", supportedFamilies: ["b/c"])
                        ]
                        // A painter: a kind that is a terminal's escape sequence, and one of 120 é's
                        // (240 bytes: with its family and appearance, past a file name's 255); a
                        // kind whose `/` follows a prepending letter (U+0D4E), which joins it into
                        // one character; two kinds a file name's `_` would make one.
                        : attack == "painter"
                            ? [
                                WidgetDescription(kind: "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J", supportedFamilies: ["systemSmall"]),
                                WidgetDescription(kind: String(repeating: "é", count: 120), supportedFamilies: ["systemMedium"]),
                                WidgetDescription(kind: "x\u{0D4E}/y", supportedFamilies: ["systemMedium"]),
                                WidgetDescription(kind: "a/b", supportedFamilies: ["systemMedium"]),
                                WidgetDescription(kind: "a:b", supportedFamilies: ["systemMedium"])
                            ]
                            // A crowd: 20,000 kinds in one hello (each would be a widget instance with timers).
                            : attack == "crowd"
                                ? (0..<20_000).map { WidgetDescription(kind: "k\($0)", supportedFamilies: ["systemSmall"]) }
                                // A shifter: 100 kinds no launch before it declared, in every launch.
                                : attack == "shifter" && env("ROGUE_SHIFTER") != nil
                                    ? (0..<100).map { WidgetDescription(kind: "k\(getpid())-\($0)", supportedFamilies: ["systemSmall"]) }
                                    : [WidgetDescription(kind: "Rogue", supportedFamilies: ["systemSmall"])])))
switch attack {
case "dates":
    // A background session whose resource timeout is each extreme, a task in it whose earliest
    // begin date is each extreme, resumed; timelines and entries dated with them.
    let url = env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/"
    for (n, value) in extremes.enumerated() {
        send(.attachSession(SessionConfigurationPayload(identifier: "far\(n)", timeoutIntervalForResource: value)))
        send(
            .createTask(
                RequestID(UInt64(100 + n)),
                TaskRequestPayload(session: "far\(n)", kind: .download, request: HTTPRequestPayload(url: url), earliestBeginDate: value)))
    }
    let entries = extremes.map { EntryPayload(date: $0, json: Array("{}".utf8), text: "far") }
    serveAsWidget(
        entry: entries[0], timeline: TimelinePayload(entries: entries, policy: .after(1e300)),
        otherwise: { message in
            if case .taskCreated(let request, let task) = message {
                send(.resumeTask(session: "far\(request.rawValue - 100)", taskIdentifier: task))
            }
        })
case "numbers":
    // The largest numbers the protocol carries where the host takes a number from the
    // extension: an event handled (id and start 2^64-1) with no delivery in progress, and
    // diagnostics naming request 2^64-1; then it answers as a widget, and after its first
    // timeline names in diagnostics every request the host issued before it to others.
    send(.eventHandled(identifier: "far", eventID: .max, delegateStartedNs: .max))
    send(.diagnostic(DiagnosticReport(code: .mainThreadBlocked, requestID: RequestID(.max), milliseconds: 1, message: "far")))
    send(.diagnostic(DiagnosticReport(code: .completionCalledTwice, requestID: RequestID(.max), message: "far")))
    let entry = EntryPayload(date: 0, json: Array("{}".utf8), text: "numbers")
    var own: Set<RequestID> = []
    var named = false
    serve { message in
        switch message {
        case .timelineRequest(let request, _):
            own.insert(request)
            send(.timelineReply(request, TimelinePayload(entries: [entry], policy: .never)))
            guard !named else { return }
            named = true
            for id in (1..<request.rawValue).map({ RequestID($0) }) where !own.contains(id) {
                send(.diagnostic(DiagnosticReport(code: .mainThreadBlocked, requestID: id, milliseconds: 1, message: "another's")))
            }
        case .placeholderRequest(let request, _), .snapshotRequest(let request, _):
            own.insert(request)
            send(.entryReply(request, entry))
        case .ping(let value):
            send(.pong(value))
        default:
            break
        }
    }
case "fanout":
    // reloadAllTimelines at the 10 a second the host takes (ROGUE_FANOUT), for 3 s, answering
    // nothing: each request is one for each of its 128 widgets, whose reloads are all under way
    // — an event for each, with its kind, 1.2 KB as the log writes it.
    guard env("ROGUE_FANOUT") != nil else { break }
    var pace = timespec(tv_sec: 0, tv_nsec: 100_000_000)
    for _ in 0..<30 {
        send(.reloadAllTimelines)
        nanosleep(&pace, nil)
    }
    send(.log(LogRecord(level: .info, message: "fanned out")))
case "collider":
    // Answers each timeline with one entry and no reload: both widgets then sleep.
    let entry = EntryPayload(date: 0, json: Array("{}".utf8), text: "collider")
    serveAsWidget(entry: entry, timeline: TimelinePayload(entries: [entry], policy: .never))
case "painter":
    // Answers with an entry that has a view, for `sandglass render`: one rectangle.
    let tree = ViewTree(
        width: 364, height: 170, cornerRadius: 22, family: "systemMedium",
        nodes: [
            ViewNode(
                kind: .shape, x: 0, y: 0, width: 364, height: 170, shape: .rectangle,
                fill: .color(ColorPair(light: RGBA(0x3366_99FF), dark: RGBA(0x3366_99FF))))
        ])
    let entry = EntryPayload(date: 0, json: Array("{}".utf8), view: ViewRendering(light: tree, nanoseconds: 1))
    serveAsWidget(entry: entry, timeline: TimelinePayload(entries: [entry], policy: .never))
case "todaydates":
    // A Today update that reports having blocked the main thread for 10^300 ms, then answers.
    serve { message in
        switch message {
        case .performUpdateRequest(let request):
            send(.diagnostic(DiagnosticReport(code: .mainThreadBlocked, requestID: request, milliseconds: 1e300, message: "far")))
            send(.updateResultReply(request, .newData))
        case .ping(let value):
            send(.pong(value))
        default:
            break
        }
    }
case "logflood":
    // 200 log frames of 256 KiB each: 50 MB of text for the host's memory and log (without a
    // budget, every byte of it was kept), of control characters, each six bytes as the log
    // writes it; then diagnostics as fast as the socket takes them, each with 4 KiB of them;
    // then 50,000 empty messages.
    let text = String(repeating: "\u{1}", count: 256 << 10)
    for _ in 0..<200 { send(.log(LogRecord(level: .info, message: text))) }
    let detail = String(repeating: "\u{1}", count: 4096)
    for _ in 0..<2_000 { send(.diagnostic(DiagnosticReport(code: .mainThreadBlocked, milliseconds: 1, message: detail))) }
    // And 50,000 empty messages: no text to count, each an event line of its own.
    for _ in 0..<50_000 { send(.log(LogRecord(level: .info, message: ""))) }
case "reloadflood":
    // A reload of a kind of 512 KiB, then reload requests as fast as the socket takes them.
    send(.reloadTimelines(kind: String(repeating: "k", count: 512 << 10)))
    for _ in 0..<50_000 { send(.reloadTimelines(kind: "Rogue")) }
case "hoard":
    // 600 background tasks with 64 KiB bodies, never resumed, 150 a second (within the request
    // rate): without a bound each stays in the host's journal for good (38 MiB here), and a
    // getTasks answer carrying them all outgrows any frame. Asks for the list after each ten
    // tasks, and never reads the answers.
    // First a session named with 300,000 bytes, for the journal and every event.
    send(.attachSession(SessionConfigurationPayload(identifier: String(repeating: "s", count: 300_000))))
    send(.attachSession(SessionConfigurationPayload(identifier: "hoard")))
    let body = [UInt8](repeating: 0x41, count: 64 << 10)
    let url = env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/"
    for n in 1...600 {
        let request = HTTPRequestPayload(url: url, method: "POST", body: body)
        send(.createTask(RequestID(UInt64(1000 + n)), TaskRequestPayload(session: "hoard", kind: .data, request: request)))
        if n % 10 == 0 { send(.getTasks(RequestID(UInt64(n)), session: "hoard")) }
        var pace = timespec(tv_sec: 0, tv_nsec: 6_700_000)
        nanosleep(&pace, nil)
    }
case "denials":
    // socket(AF_INET) without end: each call the sandbox refuses waits for the host's verdict,
    // and each was an event.
    while true {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if fd >= 0 { close(fd) }
    }
case "torrent":
    // Reload and log frames the host drops or coalesces, without end, as fast as the socket
    // takes them: a flood that never leaves the host's loop a short read to stop at.
    let frames = (0..<4096).flatMap { n in
        Frame.encode(n % 2 == 0 ? .reloadAllTimelines : .log(LogRecord(level: .info, message: "torrent")))
    }
    while true { writeAll(frames) }
case "deluge":
    // Log frames of 1 MiB without end: past its log budget each is dropped and counted by
    // number, 2,000 a second — gigabytes a second for the host's loop to read and decode.
    let frame = Frame.encode(.log(LogRecord(level: .info, message: String(repeating: "d", count: (1 << 20) - 64))))
    while true { writeAll(frame) }
case "requestflood":
    // Requests the host must answer, far past any real extension's rate.
    for n in 0..<20_000 { send(.getTasks(RequestID(UInt64(n + 2)), session: "flood")) }
case "schemes":
    // Schemes that would reach the host's own Unix sockets and files, and a method carrying JSON.
    fetch(env("ROGUE_UNIX_URL") ?? "http+unix://%2Frun%2Fsandglass.sock/status")
    fetch("unix:///run/sandglass.sock")
    fetch("file:///etc/shadow")
    fetch(env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/", method: "{\"command\":\"kill\"}")
case "cycler":
    // Background tasks created and cancelled at once, each leaving a cancelled task whose event
    // it never takes (200 of 64 KiB), and 200 sessions: none is live, and each stays in the
    // journal while its event waits.
    send(.attachSession(SessionConfigurationPayload(identifier: "cycle")))
    let body = [UInt8](repeating: 0x43, count: 64 << 10)
    for n in 1...200 {
        let request = HTTPRequestPayload(url: env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/", method: "POST", body: body)
        send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: "cycle", kind: .data, request: request)))
        send(.cancelTask(session: "cycle", taskIdentifier: n))
        var pace = timespec(tv_sec: 0, tv_nsec: 6_700_000)
        nanosleep(&pace, nil)
    }
    for n in 1...200 { send(.attachSession(SessionConfigurationPayload(identifier: "many-\(n)"))) }
case "stasher":
    // Inline POST tasks of 512 KiB, created and never resumed: each body held by the host for
    // as long as the process lives (64 of them: 32 MiB).
    let body = [UInt8](repeating: 0x53, count: 512 << 10)
    for n in 1...64 {
        let request = HTTPRequestPayload(url: env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/", method: "POST", body: body)
        send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: "", kind: .data, request: request)))
        var pace = timespec(tv_sec: 0, tv_nsec: 6_700_000)
        nanosleep(&pace, nil)
    }
case "scribe":
    // Inline tasks whose URLs are 4,000 bytes, created and never resumed (ROGUE_SCRIBE): each
    // becomes a task.created event in the operator's log. 250 of them are 1 MB of log from a
    // few frames, past the budget a process's own log lines have.
    guard env("ROGUE_SCRIBE") != nil else { break }
    let path = String(repeating: "s", count: 4_000)
    for n in 1...250 {
        let request = HTTPRequestPayload(url: (env("ROGUE_HTTP_URL") ?? "http://127.0.0.1:1/") + path + "?\(n)")
        send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: "", kind: .data, request: request)))
    }
case "namer":
    // Session identifiers of 512 KiB (ROGUE_NAMER), where the host takes one without attaching
    // a session: invalidated, finished, an event handled, a task refused; 20 of each.
    // ROGUE_NAMER=flood: within its burst of requests, 450 calls of the completion handler with
    // no delivery and 450 tasks refused, for identifiers of 256 control characters (each line
    // 1.7 KB as the log writes it: 1.5 MB in all). Then it exits.
    if env("ROGUE_NAMER") == "flood" {
        let name = String(repeating: "\u{1}", count: 256)
        for n in 1...450 {
            send(.eventsFinished(identifier: name))
            let request = HTTPRequestPayload(url: "file:///etc/passwd")
            send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: name, kind: .download, request: request)))
        }
        _exit(0)
    }
    guard env("ROGUE_NAMER") != nil else { break }
    let name = String(repeating: "n", count: 512 << 10)
    for n in 1...20 {
        send(.invalidateSession(identifier: name, cancelTasks: true))
        send(.eventsFinished(identifier: name))
        send(.eventHandled(identifier: name, eventID: 1))
        let request = HTTPRequestPayload(url: "file:///etc/passwd")
        send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: name, kind: .download, request: request)))
    }
case "shifter":
    // Answers its first timeline, then exits cleanly: the host launches it again for its other
    // widgets, and it declares 100 new kinds (ROGUE_SHIFTER).
    guard env("ROGUE_SHIFTER") != nil else { break }
    let entry = EntryPayload(date: 0, json: Array("{}".utf8), text: "shifter")
    serveAsWidget(entry: entry, timeline: TimelinePayload(entries: [entry], policy: .never), afterTimeline: { _exit(0) })
case "dropper":
    // A background data task and a download of ROGUE_DROPPER's URL; when both have ended and
    // their events come, it takes none, and invalidates the session with its tasks cancelled.
    guard let url = env("ROGUE_DROPPER") else { break }
    send(.attachSession(SessionConfigurationPayload(identifier: "drop")))
    for (n, kind) in [TaskKind.data, .download].enumerated() {
        send(.createTask(RequestID(UInt64(n + 1)), TaskRequestPayload(session: "drop", kind: kind, request: HTTPRequestPayload(url: url))))
        send(.resumeTask(session: "drop", taskIdentifier: n + 1))
    }
    var completed = 0
    serve { message in
        switch message {
        case .backgroundEventsRequest(let request, _):
            send(.backgroundEventsReply(request, accepted: true))
            send(.attachSession(SessionConfigurationPayload(identifier: "drop")))
        case .taskCompleted:
            completed += 1
            if completed == 2 { send(.invalidateSession(identifier: "drop", cancelTasks: true)) }
        default:
            break
        }
    }
case "hoarder":
    // A backlog of events delivered at once (ROGUE_HOARDER: a URL the server holds). Its first
    // process creates 600 background downloads of it — within the request budget: a burst, then
    // 200 frames a second — and declines every delivery while any of them runs (it lists its
    // tasks every 100 ms). Once all have ended, one more download (ROGUE_HOARDER_LAST) brings
    // the events of all 601 in one delivery: two for each (finished, completed), about 16 KiB
    // each with the server's ETag (ROGUE_HOARDER's `etag=`), 19 MB in all, past what the host
    // may queue for a process at once. It takes every event it is given, 2 ms over each, and
    // calls the completion handler after each `allEventsDelivered`.
    guard let url = env("ROGUE_HOARDER"), let last = env("ROGUE_HOARDER_LAST") else { break }
    let count = 600
    // Its container says whether a process of it hoarded already (written once it has: a
    // first process killed before that leaves the hoarding to the next).
    let first = access("hoarded", F_OK) != 0
    var hoarding = first
    send(.attachSession(SessionConfigurationPayload(identifier: "hoard")))
    if first {
        for n in 1...count {
            send(
                .createTask(
                    RequestID(UInt64(n)), TaskRequestPayload(session: "hoard", kind: .download, request: HTTPRequestPayload(url: url))))
            send(.resumeTask(session: "hoard", taskIdentifier: n))
            if n > 450 {
                var pace = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pace, nil)
            }
        }
        send(.log(LogRecord(level: .info, message: "hoarded \(count)")))
        close(open("hoarded", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600))
        send(.getTasks(RequestID(UInt64(count + 1)), session: "hoard"))
    }
    var taken = 0
    let entry = EntryPayload(date: 0, json: Array("{}".utf8), text: "hoarder")
    serveAsWidget(entry: entry, timeline: TimelinePayload(entries: [entry], policy: .never)) { message in
        switch message {
        case .taskList(_, let tasks) where hoarding:
            // A task that has ended is listed no more.
            if tasks.allSatisfy({ $0.state == .completed }) {
                hoarding = false
                send(
                    .createTask(
                        RequestID(UInt64(count + 2)),
                        TaskRequestPayload(session: "hoard", kind: .download, request: HTTPRequestPayload(url: last))))
                send(.resumeTask(session: "hoard", taskIdentifier: count + 1))
                send(.log(LogRecord(level: .info, message: "released")))
            } else {
                var pace = timespec(tv_sec: 0, tv_nsec: 100_000_000)
                nanosleep(&pace, nil)
                send(.getTasks(RequestID(UInt64(count + 1)), session: "hoard"))
            }
        case .backgroundEventsRequest(let request, _):
            send(.backgroundEventsReply(request, accepted: !hoarding))
        case .downloadFinished, .taskCompleted:
            // 2 ms over each, as a delegate that reads its file would take.
            taken += 1
            var pace = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pace, nil)
        case .allEventsDelivered:
            send(.eventsFinished(identifier: "hoard"))
            send(.log(LogRecord(level: .info, message: "took \(taken)")))
        default:
            break
        }
    }
case "poacher":
    // Another process of the app, after a session another holds (ROGUE_POACHER: its name, or 1
    // for the Cycler's "cycle", or nul for "cycle" with a NUL and more after it, which it
    // attaches first): it lists its tasks every 100 ms, 50 times, logging how many it saw, then
    // invalidates the session with its tasks cancelled.
    guard let named = env("ROGUE_POACHER") else { break }
    let session = named == "1" ? "cycle" : named == "nul" ? "cycle\u{0}poached" : named
    if named == "nul" { send(.attachSession(SessionConfigurationPayload(identifier: session))) }
    var asked = 0
    send(.getTasks(RequestID(1), session: session))
    serve { message in
        guard case .taskList(_, let tasks) = message else { return }
        asked += 1
        send(.log(LogRecord(level: .info, message: "listed \(tasks.count) tasks of \(session.prefix { $0 != "\u{0}" })")))
        if asked < 50 {
            var pace = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pace, nil)
            send(.getTasks(RequestID(UInt64(asked + 1)), session: session))
        } else if asked == 50 {
            send(.invalidateSession(identifier: session, cancelTasks: true))
            send(.log(LogRecord(level: .info, message: "invalidated \(session.prefix { $0 != "\u{0}" })")))
        }
    }
case "locator":
    // Location requests as fast as the host's request budget lets a process go on (ROGUE_LOCATOR):
    // its burst of 1,000, then 180 a second for 8 s; each is answered, and recorded. Then it
    // exits: a log line saying so would not be told, its log budget spent by then.
    guard env("ROGUE_LOCATOR") != nil else { break }
    for _ in 0..<1000 { send(.locationRequest(.once)) }
    for _ in 0..<(180 * 8) {
        send(.locationRequest(.once))
        var pace = timespec(tv_sec: 0, tv_nsec: 1_000_000_000 / 180)
        nanosleep(&pace, nil)
    }
    _exit(0)
case "nester":
    // Directories nested in its container whose path is past PATH_MAX (20 of 250-byte names),
    // a FIFO and a link to /etc at the bottom (ROGUE_NESTER): a removal by path stops there,
    // and the run's temporary data directory would stay behind.
    guard env("ROGUE_NESTER") != nil else { break }
    let name = String(repeating: "n", count: 250)
    var dir = open(".", O_RDONLY | O_DIRECTORY)
    for _ in 0..<20 where dir >= 0 {
        mkdirat(dir, name, 0o700)
        let next = openat(dir, name, O_RDONLY | O_DIRECTORY)
        close(dir)
        dir = next
    }
    mkfifoat(dir, "pipe", 0o600)
    symlinkat("/etc", dir, "etc")
    send(.log(LogRecord(level: .info, message: dir >= 0 ? "nested" : "could not nest, errno \(errno)")))
case "terminal":
    // Text for the operator's terminal, through the host's trace: a clipboard write (OSC 52), a
    // screen clear, a line that forges a verdict, and a right-to-left override; logged and printed.
    let forged = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{1B}[H\n     9.999s  all invariants held\u{202E}txt.exe"
    send(.log(LogRecord(level: .info, message: forged)))
    writeAll(Array((forged + "\n").utf8), to: 1)
case "hog":
    // Background downloads past what its container may hold: one announced at 8 MiB
    // (ROGUE_BIG_URL), one of 8 MiB sent without a length (ROGUE_UNSIZED_URL), and four of
    // 3 MiB (ROGUE_PART_URL), all at once; it never takes their events, so that what finishes
    // stays with the host. Without a bound the host holds all 28 MiB for it, on its own disk.
    guard env("ROGUE_PART_URL") != nil else { break }
    send(.attachSession(SessionConfigurationPayload(identifier: "hog")))
    let urls = [env("ROGUE_BIG_URL"), env("ROGUE_UNSIZED_URL")] + Array(repeating: env("ROGUE_PART_URL"), count: 4)
    for (n, url) in urls.enumerated() {
        let request = HTTPRequestPayload(url: url ?? "http://127.0.0.1:1/")
        send(.createTask(RequestID(UInt64(100 + n)), TaskRequestPayload(session: "hog", kind: .download, request: request)))
        send(.resumeTask(session: "hog", taskIdentifier: n + 1))
    }
case "flood":
    // Requests to a server that holds them (ROGUE_HELD_URL), all at once: 150 background
    // downloads and 100 inline requests. Without turns the host opens a connection for each —
    // its sockets, libcurl's buffers — and the next extension's request waits behind them.
    guard let url = env("ROGUE_HELD_URL") else { break }
    send(.attachSession(SessionConfigurationPayload(identifier: "flood")))
    for n in 1...150 {
        let request = HTTPRequestPayload(url: url + "&task=\(n)")
        send(.createTask(RequestID(UInt64(n)), TaskRequestPayload(session: "flood", kind: .download, request: request)))
        send(.resumeTask(session: "flood", taskIdentifier: n))
    }
    for n in 1...100 {
        let request = HTTPRequestPayload(url: url + "&inline=\(n)")
        send(.createTask(RequestID(UInt64(1000 + n)), TaskRequestPayload(session: "", kind: .data, request: request)))
        send(.resumeTask(session: "", taskIdentifier: n))
    }
case "control":
    // The control socket of a `serve` host (ROGUE_CONTROL_PATH), asked to kill another
    // extension (ROGUE_VICTIM): what the host's own operator may do, an extension must not.
    let request = #"{"command":"kill","bundle":"\#(env("ROGUE_VICTIM") ?? "")","reason":"chaos"}"# + "\n"
    send(.log(LogRecord(level: .info, message: "control answered: " + askControl(env("ROGUE_CONTROL_PATH") ?? "", request))))
case "unread":
    // An inline download whose data it never reads: the host must not hold it all.
    fetch(env("ROGUE_DOWNLOAD_URL") ?? "http://127.0.0.1:1/")
    // And a URL of 600 KB, for the event log, framing its own request (headers the host never sends).
    fetch(
        "http://127.0.0.1:1/" + String(repeating: "a", count: 600_000),
        headers: [HeaderField("Content-Length", "0"), HeaderField("connection", "keep-alive"), HeaderField("Content-Length", "5")])
    while true { pause() }
default:
    break
}
drain()
