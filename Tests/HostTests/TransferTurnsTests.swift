import CSandbox
import Foundation
import SandglassIPC
import SandglassTesting
import Testing

@testable import SandglassHost

/// How many requests the host runs at once for an extension and in all: the rest wait their
/// turn, and owners take turns. Against the real fixture server, its gates holding responses.
@Suite("Transfer turns")
struct TransferTurnsTests {
    /// Runs `body` with a server and a transport of `concurrency`; shuts both down after.
    private func withTransport(
        _ concurrency: ConcurrentTransfers = .init(), _ body: (FixtureServer, HTTPTransport) async throws -> Void
    ) async throws {
        let transport = HTTPTransport(concurrency: concurrency)
        try await withFixtureServer(and: transport) { server in try await body(server, transport) }
    }

    /// Takes a transfer's events to its end; whether it completed.
    private func completes(_ transfer: HTTPTransfer) async -> Bool {
        while true {
            switch await transfer.next() {
            case .response, .data: continue
            case .end(.completed): return true
            case .end(.failed): return false
            }
        }
    }

    /// Waits (with a deadline) until the server has seen `count` requests whose URI starts with `prefix`.
    private func serverSees(_ server: FixtureServer, _ count: Int, _ prefix: String) async throws {
        let deadline = sg_monotonic_ns() + 30_000_000_000
        while server.requestCount(prefix) < count {
            guard sg_monotonic_ns() < deadline else {
                throw TransferTurnsError(description: "the server saw \(server.requestCount(prefix)) of \(count) requests \(prefix)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits (with a deadline) until `count` transfers of `transport` wait their turn.
    private func waiting(_ transport: HTTPTransport, _ count: Int) async throws {
        let deadline = sg_monotonic_ns() + 30_000_000_000
        while transport.transfersWaiting != count {
            guard sg_monotonic_ns() < deadline else {
                throw TransferTurnsError(description: "\(transport.transfersWaiting) transfers wait their turn, not \(count)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Starts a request of `owner`, of app `app` (by default an app of its own).
    private func start(
        _ transport: HTTPTransport, _ server: FixtureServer, _ path: String, owner: String, app: String? = nil
    ) -> HTTPTransfer {
        transport.start(
            HTTPRequestPayload(url: server.url(path)), readTimeout: .seconds(60), owner: TransferOwner(app: app ?? owner, name: owner))
    }

    @Test(
        "an extension's flood of requests: only a few on the wire at once, the rest wait their turn; another's request goes through meanwhile; then every one completes"
    )
    func floodWaitsItsTurn() async throws {
        try await withTransport { server, transport in
            let perOwner = ConcurrentTransfers().perOwner
            let flood = (0..<40).map { start(transport, server, "/bytes/10?gate=hold&i=\($0)", owner: "rogue") }
            try await waiting(transport, 40 - perOwner)
            try await serverSees(server, perOwner, "/bytes/10?gate=hold")
            // Another extension's request is not held behind the flood.
            #expect(await completes(start(transport, server, "/bytes/20", owner: "victim")))
            #expect(server.requestCount("/bytes/10?gate=hold") == perOwner, "the flood's requests on the wire at once")
            server.open(gate: "hold")
            var completed = 0
            for transfer in flood where await completes(transfer) { completed += 1 }
            #expect(completed == 40)
            #expect(server.requestCount("/bytes/10?gate=hold") == 40)
        }
    }

    @Test("at the host's limit, a slot freed goes to the owner waiting with the fewest on the wire, not to the flood's next request")
    func ownersTakeTurns() async throws {
        try await withTransport(.init(perOwner: 2, total: 2)) { server, transport in
            let first = start(transport, server, "/bytes/10?gate=a0", owner: "a")
            let second = start(transport, server, "/bytes/10?gate=a1", owner: "a")
            try await serverSees(server, 2, "/bytes/10?gate=a")
            let third = start(transport, server, "/bytes/10?gate=a2", owner: "a")
            let other = start(transport, server, "/bytes/11?gate=b", owner: "b")
            try await waiting(transport, 2)
            #expect(server.requestCount("/bytes/11") == 0, "the host's limit holds b")
            server.open(gate: "a0")
            #expect(await completes(first))
            // The slot goes to b, although a's third request waited longer.
            try await serverSees(server, 1, "/bytes/11?gate=b")
            try await waiting(transport, 1)
            #expect(server.requestCount("/bytes/10?gate=a2") == 0)
            server.open(gate: "b")
            #expect(await completes(other))
            try await serverSees(server, 1, "/bytes/10?gate=a2")
            server.open(gate: "a1")
            server.open(gate: "a2")
            #expect(await completes(second))
            #expect(await completes(third))
        }
    }

    @Test(
        "an app of many extensions: at most its share on the wire at once, whatever its extensions' own; another app's request goes through"
    )
    func appShare() async throws {
        try await withTransport(.init(perOwner: 2, perApp: 3, total: 16)) { server, transport in
            let held = (0..<3).flatMap { n in
                (0..<2).map { start(transport, server, "/bytes/10?gate=app&owner=\(n)&i=\($0)", owner: "extension \(n)", app: "many") }
            }
            try await waiting(transport, 3)
            try await serverSees(server, 3, "/bytes/10?gate=app")
            #expect(await completes(start(transport, server, "/bytes/21", owner: "other")))
            #expect(server.requestCount("/bytes/10?gate=app") == 3, "the app's requests on the wire at once")
            server.open(gate: "app")
            var completed = 0
            for transfer in held where await completes(transfer) { completed += 1 }
            #expect(completed == 6)
        }
    }

    @Test(
        "the host's slots all held by other apps' requests a server never answers: past its turn the oldest of the app with the most gives way (-1001, transient)"
    )
    func heldSlotsGiveWay() async throws {
        try await withTransport(.init(perOwner: 2, perApp: 2, total: 2, turn: .milliseconds(300))) { server, transport in
            let first = start(transport, server, "/bytes/10?gate=never&i=0", owner: "hog")
            let second = start(transport, server, "/bytes/10?gate=never&i=1", owner: "hog")
            try await serverSees(server, 2, "/bytes/10?gate=never")
            let other = start(transport, server, "/bytes/12", owner: "other")
            #expect(await completes(other), "another app's request waited for ever")
            guard case .end(.failed(let error, let transient)) = await first.next() else {
                Issue.record("the oldest held request did not give way"); return
            }
            #expect(error.code == -1001 && transient, "\(error.message)")
            #expect(error.message.contains("turn"))
            #expect(transport.transfersWaiting == 0)
            second.cancel()
        }
    }

    @Test(
        "who gives way: only when another app waits for the host's slots, not its own share; of those past their turn, the oldest of the app with the most"
    )
    func givingWay() {
        let transport = HTTPTransport()
        func transfer(_ app: String, _ owner: String, onWireSince: UInt64) -> HTTPTransfer {
            let transfer = HTTPTransfer(
                transport: transport, request: HTTPRequestPayload(url: "http://127.0.0.1/"), readTimeout: .seconds(1),
                owner: TransferOwner(app: app, name: owner))
            transfer.onWireSince = onWireSince
            return transfer
        }
        var turns = TransferTurns(ConcurrentTransfers(perOwner: 2, perApp: 2, total: 3, turn: .seconds(10)))
        let second: UInt64 = 1_000_000_000
        let onTheWire = [
            transfer("a", "a1", onWireSince: 5 * second), transfer("a", "a2", onWireSince: 2 * second),
            transfer("b", "b1", onWireSince: 1 * second)
        ]
        onTheWire.forEach { turns.started($0) }
        #expect(!turns.waitsForTheHost, "nobody waits")
        turns.wait(transfer("a", "a3", onWireSince: 0))
        #expect(!turns.waitsForTheHost, "only a's own share holds a's request")
        turns.wait(transfer("c", "c1", onWireSince: 0))
        #expect(turns.waitsForTheHost)
        #expect(turns.givingWay(of: onTheWire, now: 10 * second) === nil, "none past its turn")
        #expect(turns.givingWay(of: onTheWire, now: 11 * second) === onTheWire[2], "only b's is past its turn")
        #expect(turns.givingWay(of: onTheWire, now: 12 * second) === onTheWire[1], "a has the most; its oldest")
        #expect(turns.givingWay(of: onTheWire, now: 20 * second) === onTheWire[1])
        #expect(turns.givingWay(of: [onTheWire[2]], now: 20 * second) === onTheWire[2])
    }

    @Test("a request cancelled while it waits its turn ends cancelled and never reaches the server")
    func cancelledWhileWaiting() async throws {
        try await withTransport(.init(perOwner: 1, total: 8)) { server, transport in
            let running = start(transport, server, "/bytes/10?gate=run", owner: "a")
            try await serverSees(server, 1, "/bytes/10?gate=run")
            let waiting = start(transport, server, "/bytes/10?never", owner: "a")
            try await self.waiting(transport, 1)
            waiting.cancel()
            guard case .end(.failed(let error, let transient)) = await waiting.next() else {
                Issue.record("the waiting transfer did not end first"); return
            }
            #expect(error.code == -999)
            #expect(!transient)
            server.open(gate: "run")
            #expect(await completes(running))
            #expect(await completes(start(transport, server, "/bytes/12", owner: "a")))
            #expect(server.requestCount("/bytes/10?never") == 0)
        }
    }

    @Test(
        "the line: cancelled transfers are skipped and dropped, each owner's others keep their order, owners with fewer on the wire go first"
    )
    func line() {
        let transport = HTTPTransport()
        func transfer(_ owner: String, _ n: Int) -> HTTPTransfer {
            HTTPTransfer(
                transport: transport, request: HTTPRequestPayload(url: "http://127.0.0.1/\(n)"), readTimeout: .seconds(1),
                owner: TransferOwner(app: owner, name: owner))
        }
        var turns = TransferTurns(ConcurrentTransfers(perOwner: 2, total: 3))
        let a = (0..<300).map { transfer("a", $0) }
        let b = (0..<3).map { transfer("b", $0) }
        a.forEach { turns.wait($0) }
        b.forEach { turns.wait($0) }
        // Every other of a's, and then most of the rest, cancelled while they wait.
        for (n, transfer) in a.enumerated() where n % 2 == 1 || (n > 10 && n < 290) {
            let removed = turns.remove(transfer)
            #expect(removed)
        }
        let again = turns.remove(a[1])
        #expect(!again, "already out of the line")
        #expect(turns.waitingCount == 6 + 5 + 3)
        // Transfers put on the wire, in order; the earliest on the wire ends first.
        var order: [HTTPTransfer] = []
        var onTheWire: [HTTPTransfer] = []
        func take() {
            while let next = turns.next() {
                turns.started(next)
                order.append(next)
                onTheWire.append(next)
            }
        }
        take()
        // a first (it waited first), then b, then a's second: neither owner more than 2, 3 in all.
        #expect(order.map(\.owner.name) == ["a", "b", "a"])
        #expect(turns.running == [TransferOwner(app: "a", name: "a"): 2, TransferOwner(app: "b", name: "b"): 1])
        turns.ended(onTheWire.removeFirst())
        take()
        #expect(order.last?.owner.name == "b", "b has fewer on the wire: its turn")
        while !onTheWire.isEmpty {
            turns.ended(onTheWire.removeFirst())
            take()
        }
        let survivors = [0, 2, 4, 6, 8, 10, 290, 292, 294, 296, 298]
        #expect(order.filter { $0.owner.name == "a" }.map(\.request.url) == survivors.map { "http://127.0.0.1/\($0)" })
        #expect(order.filter { $0.owner.name == "b" }.map(\.request.url) == (0..<3).map { "http://127.0.0.1/\($0)" })
        #expect(turns.waitingCount == 0 && turns.runningTotal == 0)
        let left = turns.removeAll()
        #expect(left.isEmpty)
    }

    @Test("the host's shutdown ends the requests still waiting their turn")
    func shutdownEndsWaiting() async throws {
        let server = try await FixtureServer.start()
        let transport = HTTPTransport(concurrency: .init(perOwner: 1, total: 1))
        let running = start(transport, server, "/bytes/10?gate=never", owner: "a")
        try await serverSees(server, 1, "/bytes/10?gate=never")
        let waiting = start(transport, server, "/bytes/10", owner: "b")
        try await self.waiting(transport, 1)
        await transport.shutdown()
        #expect(!(await completes(running)))
        guard case .end(.failed(let error, _)) = await waiting.next() else {
            Issue.record("the waiting transfer did not end"); return
        }
        #expect(error.code == -999)
        await server.stop()
    }
}

struct TransferTurnsError: Error, CustomStringConvertible {
    let description: String
}
