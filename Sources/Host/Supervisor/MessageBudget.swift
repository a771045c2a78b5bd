import SandglassIPC

/// What one extension process may send the host unasked, and how much of it. Every message an
/// extension can send has a budget, because each one costs the host memory, log bytes or work:
///
/// - `log` frames and unsolicited `error` frames, and diagnostics' texts: bytes as the log writes
///   them (a control character takes six) per activation and per minute (and 4 KiB
///   a message: longer ones are cut), the rest dropped and counted, as the 1 MiB cap on a
///   process's standard output drops its excess;
/// - `reloadTimelines` / `reloadAllTimelines`: a number per second and per activation; requests
///   past it are coalesced into the reload already due (they could only ask for the same thing)
///   and counted;
/// - `diagnostic` frames: a rate, the rest dropped and counted;
/// - calls the sandbox denies (`sandbox.denied`): each is answered, and told up to a rate, the
///   rest counted;
/// - every other frame kind (sessions, tasks, location, event acknowledgements): a burst
///   and a sustained rate far above any real extension's, past which the process is killed with
///   reason `resource`;
/// - `pong`: not counted — it answers a `ping` of the host's, one at a time (an unasked pong is
///   a protocol violation), so the host sets its pace;
/// - inline tasks: a number alive at once, over which the process is killed the same way;
/// - what is dropped or coalesced: a burst and a rate of those frames too, past which the
///   process is killed the same way — each costs the loop its decoding, and a flood without end
///   would hold the loop however little of it the host keeps.
///
/// What was dropped or coalesced is told once per window in a `messages.throttled` event.
/// Windows run on the monotonic clock: the budget protects the host, whose memory and log grow
/// in real time whatever the run's clock.
struct MessageBudget {
    /// What to do with a message.
    enum Verdict: Equatable {
        case accept
        case drop
        /// Kill the process with reason `resource`; the text says why.
        case kill(String)
    }

    /// How a message counts against the budget.
    enum Kind: String {
        case log
        case reload
        case diagnostic
        /// A call the seccomp filter refused, waiting for the host's verdict.
        case denial
        case other
        /// An answer the host asked for (`pong`): its number is the host's to bound.
        case answer
    }

    /// What was dropped (or coalesced) of one kind in a window.
    struct Dropped: Equatable {
        var kind: Kind
        var messages = 0
        var bytes = 0
        var detail: String
    }

    let limits: MessageLimits
    private var lastTold: UInt64
    private var minuteStart: UInt64
    private var secondStart: UInt64
    private var logBytesThisMinute = 0
    private var logBytesThisActivation = 0
    /// Reloads and diagnostics in the current second (reloads: or since the activation began).
    private var countsThisSecond: [Kind: Int] = [:]
    private var requestTokens: Double
    private var requestRefilled: UInt64
    private var dropTokens: Double
    private var dropRefilled: UInt64
    private var dropped: [Kind: Dropped] = [:]
    private var inboundTokens: Double
    private var inboundRefilled: UInt64

    init(limits: MessageLimits, now: UInt64) {
        self.limits = limits
        lastTold = now
        requestTokens = Double(limits.requestBurst)
        requestRefilled = now
        dropTokens = Double(limits.droppedBurst)
        dropRefilled = now
        inboundTokens = Double(limits.inboundBurstBytes)
        inboundRefilled = now
        minuteStart = now
        secondStart = now
    }

    /// The kind `message` counts as.
    static func kind(of message: Message) -> Kind {
        switch message {
        case .log, .osLog: .log
        case .error(let report) where report.requestID == nil: .log
        case .reloadTimelines, .reloadAllTimelines: .reload
        case .diagnostic: .diagnostic
        case .pong: .answer
        default: .other
        }
    }

    /// `text` cut to at most `limit` bytes of UTF-8 (on a character boundary), saying how much
    /// was cut.
    static func cut(_ text: String, to limit: Int) -> String {
        let count = text.utf8.count
        guard count > limit else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        let kept = text[..<end]
        return kept + " … [\(count - kept.utf8.count) more bytes cut]"
    }

    /// An activation starts: its log and reload allowances are whole again (on a virtual clock,
    /// activations follow each other faster than real seconds: each may ask for its reload).
    mutating func activationStarted() {
        logBytesThisActivation = 0
        countsThisSecond[.reload] = nil
    }

    /// Judges `message` (of `bytes` bytes of text as the log writes it, for log and error
    /// messages) at `now` (ns).
    /// Whatever it drops is kept for ``takeDropped(now:force:)``.
    mutating func admit(_ kind: Kind, bytes: Int = 0, now: UInt64) -> Verdict {
        roll(now)
        let limits = self.limits // read once: the details below are made only for a drop
        switch kind {
        case .log:
            // However short its text, a message is an event line of its own.
            let counted = max(bytes, MessageLimits.minimumLogBytes)
            if logBytesThisMinute + counted > limits.logBytesPerMinute {
                return note(kind, bytes: bytes, "over the log budget of \(limits.logBytesPerMinute >> 10) KiB a minute", now: now)
            }
            if logBytesThisActivation + counted > limits.logBytesPerActivation {
                return note(kind, bytes: bytes, "over the log budget of \(limits.logBytesPerActivation >> 10) KiB an activation", now: now)
            }
            logBytesThisMinute += counted
            logBytesThisActivation += counted
            return .accept
        case .reload:
            return counted(
                kind, limit: limits.reloadsPerSecond, now: now,
                "more than \(limits.reloadsPerSecond) reload requests within a second or an activation, coalesced into the reload already due"
            )
        case .diagnostic:
            return counted(
                kind, limit: limits.diagnosticsPerSecond, now: now,
                "more than \(limits.diagnosticsPerSecond) diagnostics a second")
        case .denial:
            return counted(
                kind, limit: limits.deniedCallsPerSecond, now: now,
                "more than \(limits.deniedCallsPerSecond) denied calls a second, each denied but not told")
        case .answer:
            return .accept
        case .other:
            // A bucket of `requestBurst` tokens refilled at `requestsPerSecond`: bursts pass, a
            // sustained flood empties it however fast the host serves it.
            requestTokens = min(
                Double(limits.requestBurst), requestTokens + Double(now &- requestRefilled) / 1e9 * Double(limits.requestsPerSecond))
            requestRefilled = now
            guard requestTokens >= 1 else {
                return .kill(
                    "sent requests to the host faster than \(limits.requestsPerSecond) a second after a burst of \(limits.requestBurst)")
            }
            requestTokens -= 1
            return .accept
        }
    }

    /// Charges `bytes` the process's frames took on the wire: `.accept`, or `.kill` once they
    /// come faster than their bucket refills.
    mutating func received(_ bytes: Int, now: UInt64) -> Verdict {
        inboundTokens = min(
            Double(limits.inboundBurstBytes),
            inboundTokens + Double(now &- inboundRefilled) / 1e9 * Double(limits.inboundBytesPerSecond))
        inboundRefilled = now
        inboundTokens -= Double(bytes)
        guard inboundTokens >= 0 else {
            return .kill(
                "sent the host more than \(limits.inboundBytesPerSecond >> 20) MiB of frames a second after a burst of \(limits.inboundBurstBytes >> 20) MiB"
            )
        }
        return .accept
    }

    /// Charges `bytes` of text an event of the process writes (a diagnostic's detail) to the
    /// log budget of the minute: false, and nothing charged, when they do not fit.
    mutating func charge(logBytes bytes: Int, now: UInt64) -> Bool {
        roll(now)
        guard logBytesThisMinute + bytes <= limits.logBytesPerMinute else { return false }
        logBytesThisMinute += bytes
        return true
    }

    /// How many bytes of each of its texts (a task's URL, its description) an event that a
    /// request of the process causes may carry: that text — `bytes` as the log writes it, each
    /// cut to ``MessageLimits/fieldBytes`` — is charged to the log budget of the minute while it
    /// fits; past it the event is recorded with its texts cut to ``MessageLimits/shortFieldBytes``.
    mutating func eventTextLimit(for bytes: Int, now: UInt64) -> Int {
        charge(logBytes: bytes, now: now) ? MessageLimits.fieldBytes : MessageLimits.shortFieldBytes
    }

    /// When what was dropped is due to be told (ns): a second after it was last told; nil
    /// when nothing waits.
    var untoldDue: UInt64? {
        dropped.isEmpty ? nil : lastTold &+ 1_000_000_000
    }

    /// What was dropped since it was last told, by kind, when a second has passed since then
    /// (or at once with `force`: the activation or the process ended), and forgets it.
    mutating func takeDropped(now: UInt64, force: Bool = false) -> [Dropped] {
        guard !dropped.isEmpty, force || now &- lastTold >= 1_000_000_000 else { return [] }
        lastTold = now
        let all = [Kind.log, .reload, .diagnostic, .denial].compactMap { dropped[$0] }
        dropped.removeAll()
        return all
    }

    /// One more message of `kind` in its window: accepted up to `limit`, dropped (and noted) past it.
    private mutating func counted(_ kind: Kind, limit: Int, now: UInt64, _ detail: @autoclosure () -> String) -> Verdict {
        let count = (countsThisSecond[kind] ?? 0) + 1
        countsThisSecond[kind] = count
        guard count > limit else { return .accept }
        return note(kind, bytes: 0, detail(), now: now)
    }

    /// Counts a dropped (or coalesced) frame: `.drop`, or `.kill` once drops come faster than
    /// their own bucket refills.
    private mutating func note(_ kind: Kind, bytes: Int, _ detail: String, now: UInt64) -> Verdict {
        var entry = dropped[kind] ?? Dropped(kind: kind, detail: detail)
        entry.messages += 1
        entry.bytes += bytes
        dropped[kind] = entry
        dropTokens = min(Double(limits.droppedBurst), dropTokens + Double(now &- dropRefilled) / 1e9 * Double(limits.droppedPerSecond))
        dropRefilled = now
        guard dropTokens >= 1 else {
            return .kill(
                "sent what the host drops or coalesces (logs over budget, reloads, diagnostics and denied calls past their rates) faster than \(limits.droppedPerSecond) a second after a burst of \(limits.droppedBurst)"
            )
        }
        dropTokens -= 1
        return .drop
    }

    private mutating func roll(_ now: UInt64) {
        if now &- secondStart >= 1_000_000_000 {
            secondStart = now
            countsThisSecond.removeAll(keepingCapacity: true)
        }
        if now &- minuteStart >= 60_000_000_000 {
            minuteStart = now
            logBytesThisMinute = 0
        }
    }
}
