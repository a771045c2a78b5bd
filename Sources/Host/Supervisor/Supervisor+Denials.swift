import CSandbox
import Glibc

/// Seccomp denials: a call the sandbox refuses waits for the host's verdict on the listener
/// descriptor; the host denies it with the errno the filter names and records `sandbox.denied`.
extension Supervisor {
    /// Answers the denied calls waiting on the process's listener (or closes it when it hangs up).
    func handleDenial(_ process: ExtensionProcess, of ext: ManagedExtension, mask: UInt32) {
        guard let listener = process.listenerFD else { return }
        // The call waits for the host's verdict: its time is not the extension's (deadline thread).
        process.killTarget?.reading(true)
        defer { process.killTarget?.reading(false) }
        if mask & UInt32(SG_EPOLLIN) != 0 {
            var note = sg_notification()
            let rc = sg_notify_receive(listener, &note)
            if rc == 0 {
                var name = [CChar](repeating: 0, count: 64)
                sg_syscall_name(note.syscall_nr, &name, name.count)
                let syscall = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                let error = SeccompProgram.errno(forDenied: syscall)
                _ = sg_notify_deny(listener, note.id, error)
                process.deniedCount += 1
                if isTold(denialBy: process, of: ext) {
                    var fields: [(String, JSONValue)] = [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("syscall", .string(syscall)), ("errno", .int(Int64(error))),
                        ("error", .string(errnoName(error)))
                    ]
                    if let detail = deniedCallDetail(syscall, note) { fields.append(("call", .string(detail))) }
                    if note.pid != UInt32(process.pid) { fields.append(("thread", .int(Int64(note.pid)))) }
                    log.emit(.sandboxDenied, fields)
                }
            }
        }
        if mask & UInt32(SG_EPOLLHUP | SG_EPOLLERR) != 0 { closeListener(process) }
    }

    /// The control socket refused a connection from process `pid` (``EventName/controlRefused``),
    /// told within its budget of denials; false when `pid` is none of the live extensions.
    func controlRefused(pid: pid_t, detail: String) -> Bool {
        guard let (ext, process) = running(pid: pid) else { return false }
        process.deniedCount += 1
        if isTold(denialBy: process, of: ext) {
            log.emit(
                .controlRefused,
                [("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))), ("detail", .string(MessageLimits.field(detail)))])
        }
        return true
    }

    /// Whether a denied call is told in its own event: within the message budget's rate; past
    /// it the call is counted (`messages.throttled`), and a storm of them kills the process.
    private func isTold(denialBy process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        let now = sg_monotonic_ns()
        let verdict = process.messageBudget.admit(.denial, now: now)
        tellThrottled(process, of: ext, now: now)
        switch verdict {
        case .accept: return true
        case .drop: return false
        case .kill(let why):
            kill(process, of: ext, .resource, detail: why)
            return false
        }
    }

    func closeListener(_ process: ExtensionProcess) {
        guard let listener = process.listenerFD else { return }
        process.killTarget?.forgetListener()
        loop.unregister(listener)
        close(listener)
        process.listenerFD = nil
    }
}

/// `EACCES`, `EPERM`, …
func errnoName(_ e: Int32) -> String {
    switch e {
    case EPERM: "EPERM"
    case EACCES: "EACCES"
    case ENOSYS: "ENOSYS"
    case EAGAIN: "EAGAIN"
    default: "errno \(e)"
    }
}

/// A readable form of the arguments of a denied call that matter (`socket(AF_INET)`).
func deniedCallDetail(_ syscall: String, _ note: sg_notification) -> String? {
    switch syscall {
    case "socket", "socketpair":
        let families: [UInt64: String] = [1: "AF_UNIX", 2: "AF_INET", 10: "AF_INET6", 16: "AF_NETLINK", 17: "AF_PACKET", 30: "AF_TIPC"]
        let family = families[note.args.0] ?? "family \(note.args.0)"
        // A Unix pair is denied for its type alone (a datagram pair reaches named sockets).
        return syscall == "socketpair" && note.args.0 == 1 ? "socketpair(AF_UNIX, type \(note.args.1 & 0xf))" : "\(syscall)(\(family))"
    case "ioctl":
        let requests: [UInt64: String] = [0x5412: "TIOCSTI", 0x541C: "TIOCLINUX"]
        return "ioctl(\(requests[note.args.1 & 0xffff_ffff] ?? "0x\(String(note.args.1, radix: 16))"))"
    case "clone":
        return "clone(flags 0x\(String(note.args.0, radix: 16)))"
    default:
        return nil
    }
}
