import CSandbox
import Glibc

/// Reads an extension's stdout/stderr pipe and hands over whole lines (long lines are split,
/// and after `budget` bytes — as the event log writes them — the rest of its output is
/// dropped, once noted). Each line costs at
/// least ``minimumLineCost`` of the budget (a flood of empty lines is not a flood of events),
/// and one turn of the host's loop reads at most ``maximumReadPerTurn`` of it: a pipe kept
/// full never holds the loop from its timers and the other extensions.
final class OutputReader {
    private let fd: Int32
    private let loop: EventLoop
    private var pending: [UInt8] = []
    private var remainingBudget: Int
    private var limitReached = false
    private var isOpen = true
    private let onLine: (String) -> Void
    private static let maximumLine = 4096
    static let minimumLineCost = 64
    static let maximumReadPerTurn = 64 * 1024

    init(fd: Int32, loop: EventLoop, budget: Int = 1 << 20, onLine: @escaping (String) -> Void) {
        self.fd = fd
        self.loop = loop
        self.remainingBudget = budget
        self.onLine = onLine
        loop.register(fd, events: UInt32(SG_EPOLLIN)) { [unowned self] _ in self.readAvailable(upTo: Self.maximumReadPerTurn) }
    }

    /// Reads what is left (the writer is gone: a bounded read), hands over a last partial line,
    /// and closes the pipe.
    func finish() {
        guard isOpen else { return }
        readAvailable(upTo: .max)
        if !pending.isEmpty && !limitReached { deliver(pending) }
        pending.removeAll()
        close()
    }

    private func close() {
        guard isOpen else { return }
        isOpen = false
        loop.unregister(fd)
        Glibc.close(fd)
    }

    private func readAvailable(upTo limit: Int) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var read = 0
        while isOpen, read < limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                read += n
                consume(buffer[0..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                if n == 0 { close() }
                return
            }
        }
    }

    private func consume(_ bytes: ArraySlice<UInt8>) {
        guard !limitReached else { return }
        for byte in bytes {
            guard remainingBudget > 0 else { break }
            remainingBudget -= 1
            if byte == UInt8(ascii: "\n") {
                remainingBudget -= max(0, Self.minimumLineCost - pending.count - 1)
                deliver(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
                if pending.count >= Self.maximumLine {
                    deliver(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }
        if remainingBudget <= 0 {
            limitReached = true
            if !pending.isEmpty { deliver(pending) }
            pending.removeAll()
            onLine("[sandglass: output limit reached; the rest of this process's output is dropped]")
        }
    }

    /// Hands over a line, charging the budget for what the log writes of it beyond its bytes
    /// (a control character takes six there).
    private func deliver(_ bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self)
        remainingBudget -= max(0, JSONValue.writtenBytes(line) - bytes.count)
        onLine(line)
    }
}
