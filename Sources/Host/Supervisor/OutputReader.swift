import CSandbox
import Glibc

/// Reads an extension's stdout/stderr pipe and hands over whole lines (long lines are split,
/// and after `budget` bytes the rest of its output is dropped, once noted).
final class OutputReader {
    private let fd: Int32
    private let loop: EventLoop
    private var pending: [UInt8] = []
    private var remainingBudget: Int
    private var isOpen = true
    private let onLine: (String) -> Void
    private static let maximumLine = 4096

    init(fd: Int32, loop: EventLoop, budget: Int = 1 << 20, onLine: @escaping (String) -> Void) {
        self.fd = fd
        self.loop = loop
        self.remainingBudget = budget
        self.onLine = onLine
        loop.register(fd, events: UInt32(SG_EPOLLIN)) { [unowned self] _ in self.readAvailable() }
    }

    /// Reads what is left, hands over a last partial line, and closes the pipe.
    func finish() {
        guard isOpen else { return }
        readAvailable()
        if !pending.isEmpty { deliver(pending) }
        pending.removeAll()
        close()
    }

    private func close() {
        guard isOpen else { return }
        isOpen = false
        loop.unregister(fd)
        Glibc.close(fd)
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while isOpen {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
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
        guard remainingBudget > 0 else { return }
        let accepted = bytes.prefix(remainingBudget)
        remainingBudget -= accepted.count
        for byte in accepted {
            if byte == UInt8(ascii: "\n") {
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
        if remainingBudget == 0 {
            if !pending.isEmpty { deliver(pending) }
            pending.removeAll()
            onLine("[sandglass: output limit reached; the rest of this process's output is dropped]")
        }
    }

    private func deliver(_ bytes: [UInt8]) {
        onLine(String(decoding: bytes, as: UTF8.self))
    }
}
