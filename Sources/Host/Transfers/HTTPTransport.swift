import CHTTP
import CSandbox
import Foundation
import SandglassIPC
import Synchronization

/// The host's HTTP transport: every request of one host — background downloads and inline
/// requests — on one libcurl multi handle, each app's on connections of its own (as each iOS
/// app's URL sessions have theirs: ``AppConnections``), driven by one thread of the host's (`sandglass-http`),
/// made on first use and shut down with the host: the thread, its connections and its wakeup
/// descriptors go with it, so a host leaves nothing of its network behind in its process.
///
/// libcurl brings HTTP/1.1, HTTP/2 and TLS from the system (the host builds no TLS library of its
/// own), http and https only, redirects included. What is the transport's own: a response body
/// comes to an async consumer chunk by chunk, and a consumer that falls behind pauses its
/// transfer (the socket is not read, nothing piles up in the host); the read timeout is the
/// longest wait for more of a response, not counting a pause of the consumer's; a refused
/// connection fails at once (retries are the transfer service's, on the run clock).
final class HTTPTransport: @unchecked Sendable {
    /// What the engine thread is asked to do; taken under `state`'s lock.
    private enum Command {
        case start(HTTPTransfer)
        case cancel(HTTPTransfer)
        case resume(HTTPTransfer)
    }

    private struct State {
        var commands: [Command] = []
        var thread: Thread?
        var multi: UnsafeMutableRawPointer?
        var stopping = false
        var stopped: CheckedContinuation<Void, Never>?
        /// Transfers waiting their turn, as the engine last counted.
        var waiting = 0
    }

    private let state = Mutex(State())

    /// The longest wait for a connection.
    static let connectTimeout: Duration = .seconds(10)

    /// Where it connects (each transfer's address check).
    let connectGuard: ConnectGuard
    let concurrency: ConcurrentTransfers

    init(connectPolicy: ConnectPolicy = .standard, concurrency: ConcurrentTransfers = .init()) {
        connectGuard = ConnectGuard(connectPolicy)
        self.concurrency = concurrency
    }

    /// Starts `request` for `owner` (when its turn comes); its response comes from the
    /// transfer's `next()`.
    func start(_ request: HTTPRequestPayload, readTimeout: Duration, owner: TransferOwner) -> HTTPTransfer {
        let transfer = HTTPTransfer(transport: self, request: request, readTimeout: readTimeout, owner: owner)
        let (multi, refusal): (UnsafeMutableRawPointer?, HTTPTransfer.Event.Ending?) = state.withLock { state in
            if state.stopping { return (nil, .hostShuttingDown) }
            if state.multi == nil {
                // Each app's connections are a cache of their own, which libcurl's limits count.
                guard let multi = sg_http_multi_new(concurrency.perApp) else {
                    // Transient: libcurl's global setup or an allocation failed; the next attempt tries again.
                    return (
                        nil,
                        .failed(
                            TaskErrorPayload(code: -1, message: "the host's HTTP transport could not start (libcurl's multi handle)"),
                            transient: true)
                    )
                }
                state.multi = multi
                // The engine thread owns the multi handle from here on.
                nonisolated(unsafe) let owned = multi
                let thread = Thread { [self] in
                    ThreadName.setCurrent("sandglass-http")
                    run(owned)
                }
                thread.name = "sandglass-http"
                state.thread = thread
                thread.start()
            }
            state.commands.append(.start(transfer))
            return (state.multi, nil)
        }
        if let refusal {
            transfer.deliver(.end(refusal))
        } else if let multi {
            sg_http_wakeup(multi)
        }
        return transfer
    }

    /// Transfers started and waiting their turn (``ConcurrentTransfers``), as the engine last counted.
    var transfersWaiting: Int { state.withLock { $0.waiting } }

    /// Cancels a transfer (it ends with `cancelled`).
    func cancel(_ transfer: HTTPTransfer) { command(.cancel(transfer), else: transfer) }

    /// Lets a paused transfer go on: its consumer caught up.
    func resume(_ transfer: HTTPTransfer) { command(.resume(transfer), else: nil) }

    private func command(_ command: Command, else transfer: HTTPTransfer?) {
        let multi: UnsafeMutableRawPointer? = state.withLock { state in
            guard !state.stopping, let multi = state.multi else { return nil }
            state.commands.append(command)
            return multi
        }
        if let multi {
            sg_http_wakeup(multi)
        } else {
            transfer?.deliver(.end(.cancelled))
        }
    }

    /// Ends every transfer (each ends with `cancelled`) and stops the thread; returns when it
    /// has freed the multi handle.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let multi: UnsafeMutableRawPointer? = state.withLock { state in
                state.stopping = true
                guard let multi = state.multi else { return nil }
                state.stopped = continuation
                return multi
            }
            if let multi { sg_http_wakeup(multi) } else { continuation.resume() }
        }
    }

    // MARK: the engine thread

    /// The engine: starts, resumes and cancels transfers as asked, lets libcurl run them, ends
    /// those that finished or waited longer than their read timeout.
    private func run(_ multi: UnsafeMutableRawPointer) {
        var active: [ObjectIdentifier: HTTPTransfer] = [:]
        var turns = TransferTurns(concurrency)
        let shares = AppConnections()
        func open(_ transfer: HTTPTransfer) {
            guard let share = shares.share(for: transfer.owner.app) else {
                // Never another app's connections: the transfer waits for a later attempt.
                transfer.finish(
                    .failed(
                        TaskErrorPayload(
                            code: -1, message: "the host's HTTP transport could not keep the app's connections apart (libcurl's share)"),
                        transient: true))
                return
            }
            guard transfer.open(on: multi, share: share) else { return shares.ended(transfer.owner.app) }
            active[ObjectIdentifier(transfer)] = transfer
            turns.started(transfer)
        }
        /// Puts on the wire the transfers whose turn has come; whether there were any.
        @discardableResult
        func admit() -> Bool {
            var admitted = false
            while let transfer = turns.next() {
                open(transfer)
                admitted = true
            }
            state.withLock { $0.waiting = turns.waitingCount }
            return admitted
        }
        func end(_ transfer: HTTPTransfer, _ ending: HTTPTransfer.Event.Ending) {
            if turns.remove(transfer) { return transfer.finish(ending) }
            guard let handle = transfer.handle else { return }
            active.removeValue(forKey: ObjectIdentifier(transfer))
            turns.ended(transfer)
            sg_http_finish(multi, handle)
            transfer.handle = nil
            shares.ended(transfer.owner.app)
            transfer.finish(ending)
        }
        while true {
            let (commands, stopping) = state.withLock { state in
                defer { state.commands.removeAll() }
                return (state.commands, state.stopping)
            }
            for command in commands {
                switch command {
                case .start(let transfer):
                    turns.wait(transfer)
                case .cancel(let transfer):
                    end(transfer, .cancelled)
                case .resume(let transfer):
                    transfer.resume()
                }
            }
            if stopping {
                for transfer in turns.removeAll() {
                    transfer.finish(.hostShuttingDown)
                }
                for transfer in Array(active.values) {
                    end(transfer, .hostShuttingDown)
                }
                break
            }
            admit()
            if sg_http_perform(multi) != 0 {
                for transfer in Array(active.values) {
                    end(transfer, .failed(TaskErrorPayload(code: -1, message: "libcurl's multi handle failed"), transient: true))
                }
            }
            var handle: UnsafeMutableRawPointer?
            var context: UnsafeMutableRawPointer?
            var outcome = SG_HTTP_OK
            var message: UnsafePointer<CChar>?
            while sg_http_done(multi, &handle, &context, &outcome, &message) != 0 {
                guard let context else { continue }
                let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
                transfer.responseArrivedIfNot()
                end(transfer, transfer.ending(outcome, message.map { String(cString: $0) } ?? ""))
            }
            // Transfers that timed out waiting for the server; and how long until the next may.
            let now = sg_monotonic_ns()
            shares.closeIdle(now: now)
            var wait: UInt64 = 1_000_000_000
            for transfer in Array(active.values) where !transfer.isPaused {
                let deadline = transfer.lastActivity &+ transfer.readTimeoutNanoseconds
                if deadline <= now {
                    let seconds = Double(transfer.readTimeoutNanoseconds) / 1e9
                    end(
                        transfer,
                        .failed(
                            TaskErrorPayload(code: -1001, message: "The request timed out. (no data for \(seconds) s)"), transient: true))
                } else {
                    wait = min(wait, deadline - now)
                }
            }
            // Slots freed go to the transfers waiting at once.
            if admit() { continue }
            // Every slot taken while another app's request waits: the oldest past its turn of
            // the app with the most gives way (a server that never answers holds no slot for good).
            if turns.waitsForTheHost {
                if let transfer = turns.givingWay(of: active.values, now: now) {
                    let seconds = Double(concurrency.turn.nanoseconds) / 1e9
                    end(
                        transfer,
                        .failed(
                            TaskErrorPayload(
                                code: -1001,
                                message:
                                    "The request timed out. (its turn on the host's transport, \(seconds) s, ended while other apps' requests waited)"
                            ),
                            transient: true))
                    continue
                }
                let turn = concurrency.turn.nanoseconds
                if let next = active.values.map({ $0.onWireSince &+ turn }).min(), next > now { wait = min(wait, next - now) }
            }
            _ = sg_http_poll(multi, Int32(clamping: (wait + 999_999) / 1_000_000))
        }
        // The apps' connections before the multi handle: no transfer uses them any more.
        shares.freeAll()
        sg_http_multi_free(multi)
        let stopped = state.withLock { state in
            state.multi = nil
            state.thread = nil
            defer { state.stopped = nil }
            return state.stopped
        }
        stopped?.resume()
    }
}
