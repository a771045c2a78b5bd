// sandbox-probe: tries one thing the sandbox should allow or deny and prints what happened as
// `key=value` lines on standard output. Used by the sandbox tests; not part of the product.
import Glibc
import ProbeSupport

func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
}

func readFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " || $0 == "\n" ? "_" : $0 }) }
}

func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(path.utf8.prefix(raw.count - 1))
        for (i, b) in bytes.enumerated() { raw[i] = b }
    }
    return address
}

func connectUnix(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var address = unixAddress(path)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

let args = CommandLine.arguments
let action = args.count > 1 ? args[1] : "hello"
switch action {
case "hello":
    say("ok=1")
case "socket-inet":
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    say("fd=\(fd) errno=\(fd < 0 ? errno : 0)")
case "socketpair-inet":
    // A pair of internet sockets (SCTP's SEQPACKET), and of TIPC's, which it implements.
    var fds: [Int32] = [-1, -1]
    let inet = socketpair(AF_INET, Int32(SOCK_SEQPACKET.rawValue), Int32(IPPROTO_SCTP), &fds)
    let inetErrno = inet < 0 ? errno : 0
    let tipc = socketpair(30 /* AF_TIPC */, Int32(SOCK_DGRAM.rawValue), 0, &fds)
    say("inet=\(inet) inetErrno=\(inetErrno) tipc=\(tipc) tipcErrno=\(tipc < 0 ? errno : 0)")
case "tty":
    // The controlling terminal, and a character typed into its input.
    let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
    let openErrno = fd < 0 ? errno : 0
    var byte: CChar = 0x20
    let typed = ioctl(fd >= 0 ? fd : 0, UInt(TIOCSTI), &byte)
    say("fd=\(fd) openErrno=\(openErrno) typed=\(typed) typedErrno=\(typed < 0 ? errno : 0) sid=\(getsid(0)) pid=\(getpid())")
case "socket-unix":
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    say("fd=\(fd) errno=\(fd < 0 ? errno : 0)")
case "system-sockets":
    // What a system service serves on a Unix socket everyone may write: a stream socket by path
    // (args[2], like D-Bus), a datagram socket by path (args[3], like journald's /dev/log), an
    // abstract name (args[4]); and an abstract name of its own, taken before a service binds it.
    // Each that connects or sends writes a byte.
    let streamFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var streamErrno = streamFD < 0 ? errno : 0
    var streamAddress = unixAddress(args[2])
    var stream: Int32 = -1
    if streamFD >= 0 {
        stream = withUnsafePointer(to: &streamAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(streamFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        streamErrno = stream < 0 ? errno : 0
        if stream == 0 { _ = write(streamFD, "x", 1) }
    }
    var pair: [Int32] = [-1, -1]
    let dgramPair = socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0, &pair)
    var rawPair: [Int32] = [-1, -1]
    // The kernel makes a Unix SOCK_RAW socket a datagram one.
    let raw = socketpair(AF_UNIX, Int32(SOCK_RAW.rawValue), 0, &rawPair)
    var rawSent = -1
    if raw == 0 {
        var address = unixAddress(args[3])
        rawSent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(rawPair[0], "x", 1, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
    var sent = -1
    var sentErrno = dgramPair < 0 ? errno : 0
    if dgramPair == 0 {
        var address = unixAddress(args[3])
        sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(pair[0], "x", 1, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        sentErrno = sent < 0 ? errno : 0
    }
    func abstractAddress(_ name: String) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i + 1] = b } }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count))
    }
    var (abstract, abstractLength) = abstractAddress(args[4])
    let abstractFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var abstractConnect: Int32 = -1
    var abstractErrno = abstractFD < 0 ? errno : 0
    if abstractFD >= 0 {
        abstractConnect = withUnsafePointer(to: &abstract) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(abstractFD, $0, abstractLength) }
        }
        abstractErrno = abstractConnect < 0 ? errno : 0
        if abstractConnect == 0 { _ = write(abstractFD, "x", 1) }
    }
    var streamPair: [Int32] = [-1, -1]
    let streamPairOK = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &streamPair)
    var (squat, squatLength) = abstractAddress(args[4] + "-squatted")
    let bound = withUnsafePointer(to: &squat) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(streamPair[0], $0, squatLength) }
    }
    say(
        "stream=\(stream) streamErrno=\(streamErrno) dgramPair=\(dgramPair) rawPair=\(raw) rawSent=\(rawSent) sent=\(sent) sentErrno=\(sentErrno) "
            + "abstract=\(abstractConnect) abstractErrno=\(abstractErrno) streamPair=\(streamPairOK) "
            + "bound=\(bound) boundErrno=\(bound < 0 ? errno : 0)")
case "fork":
    let pid = fork()
    if pid == 0 { _exit(0) }
    say("pid=\(pid) errno=\(pid < 0 ? errno : 0)")
case "thread":
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { _ in nil }, nil)
    if rc == 0 { pthread_join(thread, nil) }
    say("rc=\(rc)")
case "threads":
    // Starts up to N threads that never end; says how many started and why the next one did not.
    let wanted = Int(args[2]) ?? 32
    var started = 0
    var rc: Int32 = 0
    while started < wanted {
        var thread = pthread_t()
        rc = pthread_create(&thread, nil, { _ in while true { pause() } }, nil)
        if rc != 0 { break }
        started += 1
    }
    say("started=\(started) rc=\(rc)")
    _exit(0)
case "cgroups":
    // The process's cgroup lines, `hierarchy:controllers:path` joined by `;`.
    say("cgroups=\(readFile("/proc/self/cgroup").split(separator: "\n").joined(separator: ";"))")
case "ptrace":
    // ptrace is variadic in C; call it through a fixed-arity pointer (integer arguments only).
    typealias Ptrace = @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int
    let ptrace = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "ptrace"), to: Ptrace.self)
    let rc = ptrace(0 /* PTRACE_TRACEME */, 0, nil, nil)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "write":
    let path = args[2]
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    if fd >= 0 { close(fd); unlink(path) }
    say("fd=\(fd) errno=\(fd < 0 ? errno : 0)")
case "read":
    let fd = open(args[2], O_RDONLY)
    if fd >= 0 { close(fd) }
    say("fd=\(fd) errno=\(fd < 0 ? errno : 0)")
case "exec":
    let path = args[2]
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
    execv(path, argv)
    say("errno=\(errno)")
case "fds":
    var fds: [String] = []
    if let dir = opendir("/proc/self/fd") {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { fds.append(name) }
        }
        closedir(dir)
    }
    say("fds=\(fds.compactMap(Int.init).sorted().dropLast().map(String.init).joined(separator: ","))")
    var type: Int32 = 0
    var len = socklen_t(MemoryLayout<Int32>.size)
    let rc = getsockopt(3, SOL_SOCKET, SO_TYPE, &type, &len)
    say("fd3type=\(rc == 0 ? type : -1)")
case "identity":
    say("pid=\(getpid()) pgid=\(getpgid(0)) ppid=\(getppid()) uid=\(getuid()) gid=\(getgid())")
    say("home=\(String(cString: getenv("HOME") ?? strdup("")))")
    say("tmpdir=\(String(cString: getenv("TMPDIR") ?? strdup("")))")
    var cwd = [CChar](repeating: 0, count: 4096)
    say("cwd=\(String(cString: getcwd(&cwd, cwd.count)))")
    var core = rlimit()
    getrlimit(Int32(RLIMIT_CORE.rawValue), &core)
    var nofile = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &nofile)
    say("core=\(core.rlim_cur) nofile=\(nofile.rlim_cur)")
    let status = readFile("/proc/self/status")
    say("nnp=\(status.contains("NoNewPrivs:\t1") ? 1 : 0)")
case "memory":
    let mib = Int(args[2]) ?? 64
    for _ in 0..<mib {
        let p = malloc(1 << 20)!
        memset(p, 0x5A, 1 << 20)
    }
    say("allocated=\(mib)")
case "sleep":
    while true { pause() }
case "read-contents":
    // Opens and reads a file; says what it read (spaces as `_`).
    let fd = open(args[2], O_RDONLY)
    let error = errno
    if fd >= 0 { close(fd) }
    say("fd=\(fd) errno=\(fd < 0 ? error : 0) contents=\(fd >= 0 ? readFile(args[2]).replacingSpaces() : "")")
case "list":
    // Lists a directory.
    let dir = opendir(args[2])
    say("ok=\(dir == nil ? 0 : 1) errno=\(dir == nil ? errno : 0)")
    if let dir { closedir(dir) }
case "proc-view":
    // What /proc shows of the rest of the machine: whether the host's connections are listed
    // (args[2]: a TCP port listening on loopback, in /proc/net/tcp's hex; args[3]: a Unix
    // socket's path), through its own /proc/net and through the host's pid (args[4]); how many
    // processes it sees that are not its own; whether the host's command line reads.
    let port = ":" + args[2].uppercased() + " "
    let host = args[4]
    let ownNet = readFile("/proc/self/net/tcp") + readFile("/proc/self/net/tcp6")
    let hostNet = readFile("/proc/\(host)/net/tcp") + readFile("/proc/\(host)/net/tcp6")
    let unix = readFile("/proc/self/net/unix") + readFile("/proc/\(host)/net/unix")
    var others = 0
    if let dir = opendir("/proc") {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let pid = Int32(name), pid != getpid() { others += 1 }
        }
        closedir(dir)
    }
    let cmdline = open("/proc/\(host)/cmdline", O_RDONLY)
    if cmdline >= 0 { close(cmdline) }
    let status = readFile("/proc/self/status")
    // What names no process but shows the machine's: the file locks (with their pids), the load.
    let machine = readFile("/proc/locks") + readFile("/proc/loadavg")
    say(
        "tcpSeen=\(ownNet.contains(port) ? 1 : 0) hostTCPSeen=\(hostNet.contains(port) ? 1 : 0) unixSeen=\(unix.contains(args[3]) ? 1 : 0) "
            + "others=\(others) hostCmdline=\(cmdline < 0 ? -1 : 1) selfStatus=\(status.contains("Pid:") ? 1 : 0) "
            + "machine=\(machine.isEmpty ? 0 : 1) selfMaps=\(readFile("/proc/self/maps").isEmpty ? 0 : 1)")
case "chmod":
    let rc = chmod(args[2], 0o666)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "metadata":
    // What a file's mode, owner, times, extended attributes and length are open to by path
    // (args[2]), then by a descriptor opened for writing (args[3], when given).
    let path = args[2]
    let chmodRC = chmod(path, 0o666)
    let chmodErrno = chmodRC < 0 ? errno : 0
    let chownRC = chown(path, getuid(), getgid())
    let chownErrno = chownRC < 0 ? errno : 0
    typealias SetXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer, Int, Int32) -> Int32
    let lsetxattr = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "lsetxattr"), to: SetXattr.self)
    let xattrRC = lsetxattr(path, "user.sandglass", "x", 1, 0)
    let xattrErrno = xattrRC < 0 ? errno : 0
    let timesRC = utimensat(AT_FDCWD, path, nil, 0)
    let timesErrno = timesRC < 0 ? errno : 0
    // setxattrat (Linux 6.13), which glibc 2.36 has no wrapper for: `struct xattr_args` is the
    // value's address, its size and flags. ENOSYS on an older kernel.
    typealias Syscall6 = @convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int
    let raw = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "syscall"), to: Syscall6.self)
    var value: UInt8 = 0x79
    let xattratRC = withUnsafePointer(to: &value) { value in
        var arguments: (UInt64, UInt32, UInt32) = (UInt64(UInt(bitPattern: value)), 1, 0)
        return withUnsafePointer(to: &arguments) { arguments in
            path.withCString { path in
                "user.sandglassat".withCString { name in
                    raw(463, Int(AT_FDCWD), Int(bitPattern: path), 0, Int(bitPattern: name), Int(bitPattern: arguments), 16)
                }
            }
        }
    }
    let xattratErrno = xattratRC < 0 ? errno : 0
    let truncateRC = truncate(path, 0)
    let truncateErrno = truncateRC < 0 ? errno : 0
    var line =
        "chmod=\(chmodRC) chmodErrno=\(chmodErrno) chown=\(chownRC) chownErrno=\(chownErrno) xattr=\(xattrRC) xattrErrno=\(xattrErrno) "
        + "times=\(timesRC) timesErrno=\(timesErrno) xattrat=\(xattratRC) xattratErrno=\(xattratErrno) truncate=\(truncateRC) "
        + "truncateErrno=\(truncateErrno)"
    if args.count > 3 {
        let fd = open(args[3], O_WRONLY | O_CLOEXEC)
        let fchmodRC = fchmod(fd, 0o640)
        let fchmodErrno = fchmodRC < 0 ? errno : 0
        let futimensRC = futimens(fd, nil)
        line += " fd=\(fd) fchmod=\(fchmodRC) fchmodErrno=\(fchmodErrno) futimens=\(futimensRC)"
    }
    say(line)
case "prlimit":
    // Tries to take away another process's descriptors (RLIMIT_NOFILE to 0).
    // prlimit and sched_setaffinity are GNU extensions Swift's Glibc does not import: by dlsym.
    typealias Prlimit = @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    let prlimit = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "prlimit"), to: Prlimit.self)
    var none = rlimit(rlim_cur: 0, rlim_max: 0)
    let rc = prlimit(Int32(args[2])!, Int32(RLIMIT_NOFILE.rawValue), &none, nil)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "setpriority":
    let rc = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(args[2])!, 19)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "nice":
    // A raised priority for this thread, as libdispatch asks for a user-initiated worker, and a
    // lowered one; the nice value in force after each.
    let raised = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -4)
    let raisedErrno = raised < 0 ? errno : 0
    let afterRaise = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    let lowered = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    say(
        "raised=\(raised) raisedErrno=\(raisedErrno) afterRaise=\(afterRaise) lowered=\(lowered) afterLower=\(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))"
    )
case "setaffinity":
    typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer?) -> Int32
    let setAffinity = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "sched_setaffinity"), to: SetAffinity.self)
    var set = [UInt8](repeating: 0, count: 128)
    set[0] = 1
    let rc = setAffinity(Int32(args[2])!, set.count, set)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "kill":
    let rc = kill(pid_t(args[2])!, SIGKILL)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "connect":
    let rc = connectUnix(args[2])
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "serve":
    // Listens on a path socket (args[2], unless "-"), then writes its pid to args[3] and waits
    // to be killed: the target of the cross-extension tests.
    if args[2] != "-" {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = unixAddress(args[2])
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { say("errno=\(errno)"); exit(1) }
    }
    let marker = args[3]
    let out = open(marker + ".part", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    let text = "\(getpid())"
    _ = text.withCString { write(out, $0, strlen($0)) }
    close(out)
    rename(marker + ".part", marker)
    while true { pause() }
case "kill-parent":
    let rc = kill(getppid(), SIGTERM)
    say("rc=\(rc) errno=\(rc < 0 ? errno : 0)")
case "prctl-pdeathsig":
    // Clears the parent-death signal (to outlive the host), then reads what is in force.
    let rc = probe_prctl(PR_SET_PDEATHSIG, 0)
    var signal: Int32 = -1
    let got = withUnsafeMutablePointer(to: &signal) { probe_prctl(PR_GET_PDEATHSIG, UInt(bitPattern: $0)) }
    say("rc=\(rc) pdeathsig=\(got == 0 ? signal : -1)")
case "prctl-name":
    let rc = "probe-thread".withCString { probe_prctl(PR_SET_NAME, UInt(bitPattern: $0)) }
    say("rc=\(rc)")
case "shm":
    // A SysV segment outlives the process; its key lets another extension attach it.
    let id = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0o600)
    if id >= 0 { shmctl(id, IPC_RMID, nil) }
    say("id=\(id) errno=\(id < 0 ? errno : 0)")
case "mq":
    let fd = probe_mq_open("/sandglass-probe")
    say("rc=\(fd)")
case "memfd":
    // flags: 0 (executable by default), MFD_EXEC (0x10), MFD_NOEXEC_SEAL (0x8)
    say("plain=\(probe_memfd_create(0)) exec=\(probe_memfd_create(0x10)) noexec=\(probe_memfd_create(0x8))")
case "execveat":
    let rc = probe_execveat(AT_FDCWD, args[2], 0)
    say("rc=\(rc)")
case "fallocate":
    // Blocks reserved without a byte written (KEEP_SIZE: the size, and RLIMIT_FSIZE, unchanged),
    // then posix_fallocate, which falls back to writing when fallocate is not supported.
    let fd = open(CommandLine.arguments[2], O_RDWR | O_CREAT, 0o600)
    let reserved = probe_fallocate(fd, 1 /* FALLOC_FL_KEEP_SIZE */, 0, 1 << 30)
    var info = stat()
    fstat(fd, &info)
    say("fd=\(fd) rc=\(reserved) blocks=\(info.st_blocks) posix=\(posix_fallocate(fd, 0, 4096))")
case "personality":
    let query = probe_personality(0xffff_ffff)
    let set = probe_personality(0x0040000 /* ADDR_NO_RANDOMIZE */)
    say("query=\(query >= 0 ? 0 : query) set=\(set)")
case "int80", "x32":
    // On a second thread, as in an extension: a filter that kills only the calling thread
    // leaves the process running (and its activation hanging).
    var thread = pthread_t()
    let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { x32 in
        say("pid=\(x32 == nil ? probe_int80_getpid() : probe_x32_getpid())")
        return nil
    }
    pthread_create(&thread, nil, body, action == "x32" ? UnsafeMutableRawPointer(bitPattern: 1) : nil)
    pthread_join(thread, nil)
    say("survived=1")
default:
    say("unknown action \(action)")
    exit(2)
}
