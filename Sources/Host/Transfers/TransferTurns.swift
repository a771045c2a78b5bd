/// Whose transfers run on the host's transport, and which wait their turn: at most
/// ``ConcurrentTransfers/perOwner`` of one owner, ``ConcurrentTransfers/perApp`` of one app
/// and ``ConcurrentTransfers/total`` in all on the wire; the rest wait, each owner's in order. A slot freed goes to the owner
/// waiting with the fewest on the wire (the one that waited longest among equals), so one
/// extension's flood of requests neither holds the host's sockets nor holds up another's.
/// The transport's engine thread's alone.
struct TransferTurns {
    let concurrency: ConcurrentTransfers
    /// Transfers on the wire, by owner.
    private(set) var running: [TransferOwner: Int] = [:]
    /// Transfers on the wire, by app.
    private(set) var runningByApp: [String: Int] = [:]
    private(set) var runningTotal = 0
    /// Transfers waiting, each owner's in order.
    private var lines: [TransferOwner: Line] = [:]
    /// Owners with transfers waiting, in the order they take their turns.
    private var owners: [TransferOwner] = []
    /// Transfers waiting their turn.
    private(set) var waitingCount = 0

    /// One owner's transfers waiting, first in first out. A transfer cancelled while it waits
    /// stays in the array, skipped, until the line is compacted.
    private struct Line {
        var transfers: [HTTPTransfer] = []
        var head = 0
        /// Transfers in the line still waiting.
        var count = 0

        mutating func append(_ transfer: HTTPTransfer) {
            transfer.waitsItsTurn = true
            transfers.append(transfer)
            count += 1
        }

        /// The first transfer still waiting, out of the line.
        mutating func removeFirst() -> HTTPTransfer? {
            while head < transfers.count {
                let transfer = transfers[head]
                head += 1
                guard transfer.waitsItsTurn else { continue }
                transfer.waitsItsTurn = false
                count -= 1
                compactIfSparse()
                return transfer
            }
            return nil
        }

        /// `transfer` no longer waits (cancelled).
        mutating func left(_ transfer: HTTPTransfer) {
            transfer.waitsItsTurn = false
            count -= 1
            compactIfSparse()
        }

        /// Drops what no longer waits once it is most of the array.
        private mutating func compactIfSparse() {
            let held = transfers.count - head
            if count == 0 {
                transfers.removeAll()
                head = 0
            } else if held >= 64, held >= 2 * count || head * 2 >= transfers.count {
                transfers = transfers[head...].filter(\.waitsItsTurn)
                head = 0
            }
        }
    }

    init(_ concurrency: ConcurrentTransfers) {
        // Set field by field, a limit may be 0: then nothing would ever run.
        self.concurrency = ConcurrentTransfers(
            perOwner: concurrency.perOwner, perApp: concurrency.perApp, total: concurrency.total, turn: concurrency.turn)
    }

    /// Whether `owner` may put another transfer on the wire now.
    func mayRun(_ owner: TransferOwner) -> Bool {
        runningTotal < concurrency.total && running[owner, default: 0] < concurrency.perOwner
            && runningByApp[owner.app, default: 0] < concurrency.perApp
    }

    /// Whether a transfer waits that only the host's total keeps off the wire (neither its
    /// owner's share nor its app's is used up): the one case where a transfer past its turn
    /// gives way.
    var waitsForTheHost: Bool {
        runningTotal >= concurrency.total
            && owners.contains { running[$0, default: 0] < concurrency.perOwner && runningByApp[$0.app, default: 0] < concurrency.perApp }
    }

    /// Of `onTheWire`, the transfer that gives way at `now`: the oldest past its turn of the app
    /// with the most on the wire; nil when none is past its turn.
    func givingWay(of onTheWire: some Sequence<HTTPTransfer>, now: UInt64) -> HTTPTransfer? {
        let turn = concurrency.turn.nanoseconds
        return onTheWire.filter { $0.onWireSince &+ turn <= now }.min { a, b in
            let (appA, appB) = (runningByApp[a.owner.app, default: 0], runningByApp[b.owner.app, default: 0])
            return appA != appB ? appA > appB : a.onWireSince < b.onWireSince
        }
    }

    /// `transfer` goes on the wire.
    mutating func started(_ transfer: HTTPTransfer) {
        running[transfer.owner, default: 0] += 1
        runningByApp[transfer.owner.app, default: 0] += 1
        runningTotal += 1
    }

    /// `transfer`, which was on the wire, left it.
    mutating func ended(_ transfer: HTTPTransfer) {
        running[transfer.owner, default: 0] -= 1
        if running[transfer.owner] == 0 { running.removeValue(forKey: transfer.owner) }
        runningByApp[transfer.owner.app, default: 0] -= 1
        if runningByApp[transfer.owner.app] == 0 { runningByApp.removeValue(forKey: transfer.owner.app) }
        runningTotal -= 1
    }

    /// `transfer` waits its turn, after its owner's others.
    mutating func wait(_ transfer: HTTPTransfer) {
        if lines[transfer.owner] == nil { owners.append(transfer.owner) }
        lines[transfer.owner, default: Line()].append(transfer)
        waitingCount += 1
    }

    /// Takes `transfer` out of the line; false if it was not waiting.
    mutating func remove(_ transfer: HTTPTransfer) -> Bool {
        guard transfer.waitsItsTurn, var line = lines.removeValue(forKey: transfer.owner) else { return false }
        line.left(transfer)
        waitingCount -= 1
        if line.count == 0 {
            owners.removeAll { $0 == transfer.owner }
        } else {
            lines[transfer.owner] = line
        }
        return true
    }

    /// The next transfer whose turn has come, out of the line (its owner goes to the back of
    /// the owners waiting); nil when none may run now.
    mutating func next() -> HTTPTransfer? {
        guard runningTotal < concurrency.total else { return nil }
        var turn: Int?
        for (index, owner) in owners.enumerated() where mayRun(owner) {
            if let chosen = turn, running[owners[chosen], default: 0] <= running[owner, default: 0] { continue }
            turn = index
        }
        guard let turn else { return nil }
        let owner = owners.remove(at: turn)
        guard var line = lines.removeValue(forKey: owner), let transfer = line.removeFirst() else { return nil }
        waitingCount -= 1
        if line.count > 0 {
            lines[owner] = line
            owners.append(owner)
        }
        return transfer
    }

    /// Every transfer waiting, out of the line (the host's shutdown).
    mutating func removeAll() -> [HTTPTransfer] {
        var all: [HTTPTransfer] = []
        for owner in owners {
            guard var line = lines[owner] else { continue }
            while let transfer = line.removeFirst() { all.append(transfer) }
        }
        lines.removeAll()
        owners.removeAll()
        waitingCount = 0
        return all
    }
}
