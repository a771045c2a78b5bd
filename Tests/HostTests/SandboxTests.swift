import CSandbox
import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// The sandbox as a child sees it: each test spawns the real `sandbox-probe` binary through the
/// production spawn path and checks what it was allowed to do.
@Suite("Sandbox", .serialized)
struct SandboxTests {
    private func withRunner(_ body: (ProbeRunner) async throws -> Void) async throws {
        let runner = try ProbeRunner()
        do {
            try await body(runner)
        } catch {
            await runner.finish()
            throw error
        }
        await runner.finish()
    }

    @Test("a sandboxed child runs and exits normally")
    func runs() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["hello"])
            #expect(result.status == 0)
            #expect(result.value("ok") == "1")
        }
    }

    @Test(
        "no sockets of any family: internet and Unix ones fail with EACCES; the host hears of internet ones (glibc tries a Unix one in every user lookup)"
    )
    func socketsDenied() async throws {
        try await withRunner { runner in
            let notifies = (try? SeccompProgram.shared.get())?.usesNotifications == true
            let inet = try await runner.run(["socket-inet"])
            #expect(inet.int("fd") == -1)
            #expect(inet.int("errno") == Int(EACCES))
            if notifies { #expect(inet.denials == ["socket"]) }
            let unix = try await runner.run(["socket-unix"])
            #expect(unix.int("fd") == -1 && unix.int("errno") == Int(EACCES), "\(unix.lines)")
            #expect(unix.denials.isEmpty, "\(unix.denials)")
        }
    }

    @Test(
        "what the system serves on Unix sockets anyone may write is out of reach: a stream socket and a datagram socket by path, an abstract name; no abstract name taken"
    )
    func systemSocketsOutOfReach() async throws {
        let services = try SystemServices()
        defer { services.close() }
        try await withRunner { runner in
            let result = try await runner.run(["system-sockets", services.streamPath, services.datagramPath, services.abstractName])
            #expect(result.int("stream") == -1 && result.int("streamErrno") == Int(EACCES), "\(result.lines)")
            #expect(result.int("sent") == -1 && result.int("sentErrno") == Int(EACCES), "\(result.lines)")
            #expect(result.int("rawPair") == -1 && result.int("rawSent") == -1, "a raw Unix pair is a datagram one: \(result.lines)")
            #expect(result.int("abstract") == -1, "\(result.lines)")
            #expect(result.int("streamPair") == 0, "a stream pair must still work: \(result.lines)")
            #expect(result.int("bound") == -1 && result.int("boundErrno") == Int(EACCES), "\(result.lines)")
        }
        #expect(!services.streamConnected, "the stream service was reached")
        #expect(!services.datagramReceived, "the datagram service was sent a message")
        #expect(!services.abstractConnected, "the abstract service was reached")
        #expect(services.canBind(services.abstractName + "-squatted"), "the probe took an abstract name")
    }

    @Test(
        "/proc shows an extension its own processes only: not the host's connections (TCP or Unix, through its /proc/net or the host's), other processes, their command lines, or the machine's locks and load",
        .enabled(if: getuid() == 0, "the namespaces that hide them need root"))
    func procShowsOnlyItsOwn() async throws {
        let services = try SystemServices()
        defer { services.close() }
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(tcp) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(tcp, $0, length) == 0 && listen(tcp, 1) == 0 && getsockname(tcp, $0, &length) == 0
            }
        }
        try #require(listening, "a loopback listener: errno \(errno)")
        let port = String(format: "%04X", UInt16(bigEndian: address.sin_port))
        try await withRunner { runner in
            let view = try await runner.run(["proc-view", port, services.streamPath, String(getpid())])
            #expect(view.int("selfStatus") == 1, "its own entries must read: \(view.lines)")
            #expect(view.int("tcpSeen") == 0, "the host's TCP listener is in its /proc/net: \(view.lines)")
            #expect(view.int("hostTCPSeen") == 0, "the host's TCP listener is in /proc/<host>/net: \(view.lines)")
            #expect(view.int("unixSeen") == 0, "the host's Unix socket is listed: \(view.lines)")
            #expect(view.int("others") == 0, "it sees other processes: \(view.lines)")
            #expect(view.int("hostCmdline") == -1, "it reads the host's command line: \(view.lines)")
            // Nothing but the processes where the kernel has subset=pid (Linux 5.8), as run.start says.
            let subset = (try? ExtensionNamespaces.make().get()).map { namespaces in
                defer { namespaces.close() }
                return namespaces.procSubset
            }
            if subset == true { #expect(view.int("machine") == 0, "it reads /proc/locks or /proc/loadavg: \(view.lines)") }
            #expect(view.int("selfMaps") == 1, "its own maps must read (the Swift runtime's backtraces): \(view.lines)")
        }
    }

    @Test("a raised priority is accepted as a hint and not applied (no process outranks the host); a lowered one is applied")
    func raisedPriorityIgnored() async throws {
        try await withRunner { runner in
            let nice = try await runner.run(["nice"])
            #expect(nice.int("raised") == 0 && nice.int("afterRaise") == 0, "\(nice.lines)")
            #expect(nice.int("lowered") == 0 && nice.int("afterLower") == 5, "\(nice.lines)")
            #expect(nice.denials.isEmpty, "\(nice.denials)")
        }
    }

    @Test("fork fails with EPERM, threads work")
    func noNewProcesses() async throws {
        try await withRunner { runner in
            let fork = try await runner.run(["fork"])
            #expect(fork.int("pid") == -1)
            #expect(fork.int("errno") == Int(EPERM))
            let thread = try await runner.run(["thread"])
            #expect(thread.int("rc") == 0)
        }
    }

    @Test("ptrace is denied")
    func ptraceDenied() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["ptrace"])
            #expect(result.int("rc") == -1)
            #expect(result.int("errno") == Int(EPERM))
        }
    }

    @Test("without Landlock or a seccomp listener, still only fds 0-3: the host's descriptors 4 and 5 are not the child's")
    func descriptorsWithoutLayers() async throws {
        // Descriptors 4 and 5 of the host, whatever they are, made inheritable for this spawn's
        // sake where they are open (the test runner's own); two strays too.
        var restore: [(Int32, Int32)] = []
        for fd: Int32 in [4, 5] {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 {
                restore.append((fd, flags))
                _ = fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC)
            }
        }
        defer { for (fd, flags) in restore { _ = fcntl(fd, F_SETFD, flags) } }
        let strays = [open("/dev/null", O_RDONLY), open("/dev/null", O_RDONLY)]
        defer { strays.forEach { close($0) } }
        try await withRunner { runner in
            var policy = SandboxPolicy.standard
            policy.landlock = false
            policy.seccomp = false // no filter, so no listener at 4
            let fds = try await runner.run(["fds"], policy: policy)
            #expect(fds.value("fds") == "0,1,2,3", "host descriptors 4 and 5: \(restore.map(\.0))")
        }
    }

    @Test("only fds 0-3 are open, fd 3 is the IPC stream socket; no_new_privs, own process group, core 0")
    func processState() async throws {
        // A stray descriptor without CLOEXEC in the host must not leak into the child.
        let stray = open("/dev/null", O_RDONLY)
        defer { close(stray) }
        try await withRunner { runner in
            let fds = try await runner.run(["fds"])
            #expect(fds.value("fds") == "0,1,2,3")
            #expect(fds.int("fd3type") == Int(SOCK_STREAM.rawValue))
            let identity = try await runner.run(["identity"])
            #expect(identity.int("pid") == identity.int("pgid"))
            #expect(identity.int("ppid") == Int(getpid()))
            #expect(identity.int("core") == 0)
            #expect(identity.int("nofile") == 256)
            #expect(identity.int("nnp") == 1)
            #expect(identity.value("home") == runner.container)
            #expect(identity.value("cwd") == runner.container)
        }
    }

    /// Whether denials reach the host as notifications here (else they are a plain errno).
    private var notifies: Bool { (try? SeccompProgram.shared.get())?.usesNotifications == true }

    @Test("the parent-death signal cannot be cleared (the host hears of it); naming a thread works")
    func parentDeathSignalStays() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["prctl-pdeathsig"])
            #expect(result.int("rc") == -Int(EPERM))
            #expect(result.int("pdeathsig") == Int(SIGKILL))
            if notifies { #expect(result.denials == ["prctl"]) }
            let name = try await runner.run(["prctl-name"])
            #expect(name.int("rc") == 0)
            #expect(name.denials.isEmpty)
        }
    }

    @Test("SysV shared memory and POSIX message queues are denied")
    func noIPCObjects() async throws {
        try await withRunner { runner in
            let shm = try await runner.run(["shm"])
            #expect(shm.int("id") == -1)
            #expect(shm.int("errno") == Int(EPERM))
            if notifies { #expect(shm.denials == ["shmget"]) }
            let mq = try await runner.run(["mq"])
            #expect(mq.int("rc") == -Int(EPERM))
        }
    }

    @Test("without a memory cgroup, no memfd at all: its pages would be counted nowhere")
    func noMemfdWithoutCgroups() async throws {
        var policy = SandboxPolicy.standard
        policy.cgroups = false
        try await withRunner { runner in
            let memfd = try await runner.run(["memfd"], policy: policy)
            #expect(memfd.int("noexec") == -Int(EPERM), "\(memfd.lines)")
            #expect(memfd.int("plain") == -Int(EPERM))
        }
    }

    @Test("no exec of a descriptor or of an executable memfd; sealed non-executable memfds work")
    func noExecOfMemory() async throws {
        try await withRunner { runner in
            let memfd = try await runner.run(["memfd"])
            #expect(memfd.int("plain") == -Int(EPERM))
            #expect(memfd.int("exec") == -Int(EPERM))
            #expect((memfd.int("noexec") ?? -1) >= 0)
            let execveat = try await runner.run(["execveat", runner.probe])
            #expect(execveat.int("rc") == -Int(EPERM))
            #expect(execveat.value("ok") == nil)
            if notifies { #expect(execveat.denials == ["execveat"]) }
        }
    }

    @Test("fallocate is not supported: no blocks reserved past the quota without a byte written; posix_fallocate still works")
    func noFallocate() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["fallocate", runner.container + "/reserved"])
            #expect((result.int("fd") ?? -1) >= 0)
            #expect(result.int("rc") == -Int(EOPNOTSUPP))
            #expect((result.int("blocks") ?? .max) < 1024, "blocks were reserved")
            #expect(result.int("posix") == 0, "glibc's fallback writes")
        }
    }

    @Test("personality can be queried, not changed")
    func personality() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["personality"])
            #expect(result.int("query") == 0)
            #expect(result.int("set") == -Int(EPERM))
        }
    }

    @Test("a system call of another architecture kills the process with SIGSYS", arguments: ["int80", "x32"])
    func otherArchitecture(action: String) async throws {
        try await withRunner { runner in
            let result = try await runner.run([action])
            #expect(result.signal == SIGSYS)
            #expect(result.value("pid") == nil)
            #expect(result.value("survived") == nil)
        }
    }

    @Test("Landlock confines writes to the container and exec to the extension", .enabled(if: Landlock.abi > 0))
    func landlock() async throws {
        try await withRunner { runner in
            let inside = try await runner.run(["write", runner.container + "/file"])
            #expect((inside.int("fd") ?? -1) >= 0)
            let outside = try await runner.run(["write", "/tmp/sandglass-escape-\(getpid())"])
            #expect(outside.int("fd") == -1)
            #expect(outside.int("errno") == Int(EACCES))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/sandglass-escape-\(getpid())"))
            let exec = try await runner.run(["exec", "/bin/true"])
            #expect(exec.int("errno") == Int(EACCES))
        }
    }

    @Test("Landlock scopes signals: the child cannot signal the host", .enabled(if: Landlock.abi >= 6))
    func signalScope() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["kill-parent"])
            #expect(result.int("rc") == -1)
            #expect(result.int("errno") == Int(EPERM))
        }
    }

    @Test("over its memory limit the child is SIGKILLed by the cgroup, never sees malloc fail")
    func memoryLimit() async throws {
        let controller = CgroupController.probe(tag: "sandglass-probe-\(getpid())")
        try #require(controller.layout != nil, "cgroups unavailable here: \(controller.unavailableReason ?? "")")
        controller.removeBase()
        try await withRunner { runner in
            let result = try await runner.run(["memory", "64"], memoryBytes: 24 << 20)
            #expect(result.signal == SIGKILL)
            #expect(result.killedForMemory)
            #expect(result.value("allocated") == nil)
        }
    }

    @Test(
        "without a pids cgroup, an extension of its own uid still starts no thread past its task limit (RLIMIT_NPROC)",
        .enabled(if: getuid() == 0, "extensions have uids of their own only under a root host"))
    func taskLimitWithoutCgroups() async throws {
        var policy = SandboxPolicy.standard
        policy.cgroups = false
        policy.maxTasks = 8
        try await withRunner { runner in
            let threads = try await runner.run(["threads", "32"], policy: policy)
            #expect(threads.status == 0)
            #expect((threads.int("started") ?? 32) < 8, "\(threads.lines)")
            #expect(threads.int("rc") == Int(EAGAIN))
        }
    }

    @Test("socketpair of a family other than AF_UNIX fails with EACCES: an internet pair, and TIPC's, which it implements")
    func socketpairDenied() async throws {
        try await withRunner { runner in
            let pairs = try await runner.run(["socketpair-inet"])
            #expect(pairs.int("inet") == -1 && pairs.int("inetErrno") == Int(EACCES), "\(pairs.lines)")
            #expect(pairs.int("tipc") == -1 && pairs.int("tipcErrno") == Int(EACCES), "\(pairs.lines)")
        }
    }

    @Test("an extension has a session of its own, without the host's terminal: TIOCSTI is denied whatever it is asked on")
    func noTerminal() async throws {
        try await withRunner { runner in
            let tty = try await runner.run(["tty"])
            #expect(tty.int("sid") == tty.int("pid"), "\(tty.lines)")
            #expect(tty.int("fd") == -1, "it opened a terminal: \(tty.lines)")
            #expect(tty.int("typed") == -1 && tty.int("typedErrno") == Int(EPERM), "\(tty.lines)")
        }
    }

    @Test("the child joins its memory and pids groups whole; past its task limit no thread starts")
    func taskLimit() async throws {
        let controller = CgroupController.probe(tag: "sandglass-probe-\(getpid())")
        try #require(controller.layout != nil, "cgroups unavailable here: \(controller.unavailableReason ?? "")")
        controller.removeBase()
        var policy = SandboxPolicy.standard
        policy.maxTasks = 8
        try await withRunner { runner in
            let membership = try await runner.run(["cgroups"], policy: policy)
            let lines = (membership.value("cgroups") ?? "").split(separator: ";")
            // v1: the memory and pids hierarchies; v2: the one unified line.
            let v1 = lines.filter { $0.contains(":memory:") || $0.contains(":pids:") }
            let groups = v1.isEmpty ? lines.filter { $0.hasPrefix("0::") } : v1
            #expect(!groups.isEmpty)
            for line in groups {
                #expect(line.contains("/probe-"), "not in its extension group: \(line)")
            }
            let threads = try await runner.run(["threads", "32"], policy: policy)
            #expect(threads.status == 0)
            #expect((threads.int("started") ?? 32) < 8)
            #expect(threads.int("rc") == Int(EAGAIN))
        }
    }

    @Test("without the sandbox the same probe can do all of it (the filter is what denies)")
    func bareSpawn() async throws {
        try await withRunner { runner in
            let result = try await runner.run(["socket-inet"], policy: .bare)
            #expect((result.int("fd") ?? -1) >= 0)
        }
    }
}

@Suite("Sandbox identity")
struct SandboxIdentityTests {
    @Test(
        "a host running as root runs each extension as a uid of its own from the range, which cannot read root's files",
        .enabled(if: getuid() == 0))
    func unprivilegedUser() async throws {
        let runner = try ProbeRunner()
        let other = try ProbeRunner(identifier: "other", sharing: runner)
        try await finishing(runner, other) {
            let identity = try await runner.run(["identity"])
            let uid = try #require(identity.int("uid"))
            #expect(SandboxPolicy.standard.identityRange.contains(UInt32(uid)))
            #expect(identity.int("gid") == uid)
            let otherUID = try await other.run(["identity"]).int("uid")
            #expect(otherUID != nil && otherUID != uid)
            var st = stat()
            #expect(stat(runner.container, &st) == 0 && st.st_uid == UInt32(uid) && st.st_mode & 0o777 == 0o700)
            let shadow = try await runner.run(["read", "/etc/shadow"])
            #expect(shadow.int("fd") == -1)
            #expect(shadow.int("errno") == Int(EACCES))
        }
    }

    @Test(
        "an extension's uid is the owner of its container: the same after a restart, another for another container",
        .enabled(if: getuid() == 0))
    func stableIdentity() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("identities-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let range: ClosedRange<UInt32> = 50_000...50_009
        let first = ExtensionIdentities(range: range, containersRoot: root)
        let a = try first.identity(for: "com.example.a")
        _ = try ContainerDirectory.prepare(root: root, identifier: "com.example.a", owner: a)
        let b = try first.identity(for: "com.example.b")
        _ = try ContainerDirectory.prepare(root: root, identifier: "com.example.b", owner: b)
        #expect(a != b)
        // A new host on the same directory: b first this time, still the same uids.
        let restarted = ExtensionIdentities(range: range, containersRoot: root)
        #expect(try restarted.identity(for: "com.example.b") == b)
        #expect(try restarted.identity(for: "com.example.a") == a)
        #expect(try restarted.identity(for: "com.example.c") != a)
    }

    @Test(
        "uids the user database knows are skipped; a container of a uid outside the range is moved aside, not chowned",
        .enabled(if: getuid() == 0))
    func knownUIDsAndForeignContainers() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("identities-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        // 65534 is nobody on every system this runs on.
        #expect(try ExtensionIdentities(range: 65534...65535, containersRoot: root).identity(for: "com.example.a").uid == 65535)
        // An older host's container, owned by nobody, with a file in it.
        try FileManager.default.createDirectory(atPath: root + "/com.example.old/Documents", withIntermediateDirectories: true)
        try "kept".write(toFile: root + "/com.example.old/Documents/note", atomically: false, encoding: .utf8)
        chown(root + "/com.example.old", 65534, 65534)
        let identities = ExtensionIdentities(range: 50_000...50_009, containersRoot: root)
        let identity = try identities.identity(for: "com.example.old")
        let (path, repair) = try ContainerDirectory.prepare(root: root, identifier: "com.example.old", owner: identity)
        guard case .movedAside(let aside, let owner) = repair else {
            Issue.record("not moved aside: \(repair)")
            return
        }
        #expect(owner == 65534)
        #expect(try String(contentsOfFile: root + "/" + aside + "/Documents/note", encoding: .utf8) == "kept")
        var st = stat()
        #expect(stat(root + "/" + aside + "/Documents/note", &st) == 0 && st.st_uid == 0)
        #expect(stat(path, &st) == 0 && st.st_uid == identity.uid && st.st_mode & 0o777 == 0o700)
    }

    @Test(
        "a symlink where a container belongs is replaced by a real directory; nothing outside is touched",
        .enabled(if: getuid() == 0))
    func containerSymlinkRepaired() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("containers-\(UUID().uuidString.prefix(8))").path
        let victim = root + "-victim"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: victim) }
        try FileManager.default.createSymbolicLink(atPath: root + "/com.example.a", withDestinationPath: victim)
        let owner = ExtensionIdentity(uid: 50_123, gid: 50_123)
        let (path, repair) = try ContainerDirectory.prepare(root: root, identifier: "com.example.a", owner: owner)
        #expect(repair != .none)
        var st = stat()
        #expect(lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR && st.st_uid == 50_123)
        #expect(stat(victim, &st) == 0 && st.st_uid == 0)
        #expect(!FileManager.default.fileExists(atPath: victim + "/Documents"))
    }
}

/// One extension attacking another of the same host (issue #13): B gets A's pid or paths and
/// tries. Each must fail because A and B run as different uids (and B's Landlock domain).
@Suite("Cross-extension containment", .serialized, .enabled(if: getuid() == 0))
struct CrossExtensionTests {
    /// Runs `body` with A serving (`serve` action: its pid in a marker file, and a path socket in
    /// its container) and B ready to run probes; A is killed afterwards.
    private func withTarget(_ body: (_ a: ProbeRunner, _ b: ProbeRunner, _ pid: Int32, _ socket: String) async throws -> Void) async throws
    {
        let a = try ProbeRunner(identifier: "com.example.a")
        let b = try ProbeRunner(identifier: "com.example.b", sharing: a)
        let marker = a.container + "/Documents/pid"
        // A listens on a path socket in its container: the test's, owned by A (an extension
        // cannot make one: socket is denied).
        let socket = a.container + "/tmp/service.sock"
        let listener = try SystemServices.listen(at: SystemServices.pathAddress(socket), type: SOCK_STREAM)
        defer { close(listener) }
        if let identity = a.identity { chown(socket, identity.uid, identity.gid) }
        let serving = Task { try await a.run(["serve", "-", marker], timeout: .seconds(60)) }
        var pid: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while pid == 0, ContinuousClock.now < deadline {
            pid = (try? String(contentsOfFile: marker, encoding: .utf8)).flatMap { Int32($0) } ?? 0
            if pid == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        do {
            try #require(pid > 0, "the target probe did not start serving")
            try await body(a, b, pid, socket)
        } catch {
            if pid > 0 { kill(pid, SIGKILL) }
            _ = try? await serving.value
            await b.finish(); await a.finish()
            throw error
        }
        kill(pid, SIGKILL)
        _ = try? await serving.value
        await b.finish()
        await a.finish()
    }

    @Test("B cannot read A's files through $HOME/../A, nor chmod them")
    func crossContainerReads() async throws {
        try await withTarget { a, b, _, _ in
            let secret = a.container + "/Documents/secret.txt"
            try "A's secret".write(toFile: secret, atomically: false, encoding: .utf8)
            chmod(secret, 0o600)
            if let identity = a.identity { chown(secret, identity.uid, identity.gid) }
            let sneaky = b.container + "/../com.example.a/Documents/secret.txt"
            let read = try await b.run(["read-contents", sneaky])
            #expect(read.int("fd") == -1)
            #expect(read.int("errno") == Int(EACCES))
            #expect(read.value("contents") != "A's_secret")
            let change = try await b.run(["chmod", sneaky])
            #expect(change.int("rc") == -1)
            var st = stat()
            #expect(stat(secret, &st) == 0 && st.st_mode & 0o777 == 0o600)
            // A itself still reads it.
            let asA = try ProbeRunner(identifier: "com.example.a", sharing: a)
            let own = try await asA.run(["read-contents", secret])
            await asA.finish()
            #expect(own.value("contents") == "A's_secret")
        }
    }

    @Test(
        "extensions of one uid (ExtensionUser.id, or a host not root): B cannot change the mode, owner, times, extended attributes or length of A's file by its path, which Landlock has no right for (below ABI 3, for the length); A changes its own through a descriptor"
    )
    func sharedUserMetadata() async throws {
        try await withTarget { a, b, _, _ in
            let identity = try #require(a.identity, "the suite runs as root: each probe has a uid of its own")
            let secret = a.container + "/Documents/secret.txt"
            try "A's secret".write(toFile: secret, atomically: false, encoding: .utf8)
            chmod(secret, 0o600)
            chown(secret, identity.uid, identity.gid)
            var shared = SandboxPolicy.standard
            shared.extensionUser = .id(uid: identity.uid, gid: identity.gid)
            // B's container is the shared uid's, as the host makes it for such a policy.
            chown(b.container, identity.uid, identity.gid)
            for case let name as String in FileManager.default.enumerator(atPath: b.container) ?? .init() {
                lchown(b.container + "/" + name, identity.uid, identity.gid)
            }
            let sneaky = b.container + "/../com.example.a/Documents/secret.txt"
            let change = try await b.run(["metadata", sneaky], policy: shared)
            for call in ["chmod", "chown", "xattr", "times", "truncate"] {
                #expect(change.int(call) == -1 && change.int(call + "Errno") == Int(EPERM), "\(call): \(change.lines)")
            }
            // setxattrat (Linux 6.13): denied, or not there at all.
            #expect(change.int("xattrat") == -1 && [Int(EPERM), Int(ENOSYS)].contains(change.int("xattratErrno") ?? 0), "\(change.lines)")
            var st = stat()
            #expect(stat(secret, &st) == 0 && st.st_mode & 0o777 == 0o600, "A's file's mode was changed")
            #expect(st.st_size == "A's secret".utf8.count, "A's file was truncated")
            typealias GetXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
            let getxattr = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "getxattr"), to: GetXattr.self)
            #expect(getxattr(secret, "user.sandglass", nil, 0) < 0, "an attribute was set on A's file")
            #expect(getxattr(secret, "user.sandglassat", nil, 0) < 0, "an attribute was set on A's file by setxattrat")
            let notifies = (try? SeccompProgram.shared.get())?.usesNotifications == true
            if notifies { #expect(!change.denials.isEmpty, "the denials were not reported") }
            // By a descriptor, A still changes its own file (what it opened, Landlock allowed).
            let asA = try ProbeRunner(identifier: "com.example.a", sharing: a)
            let own = try await asA.run(["metadata", secret, secret], policy: shared)
            #expect(own.int("fd").map { $0 >= 0 } == true && own.int("fchmod") == 0 && own.int("futimens") == 0, "\(own.lines)")
            #expect(stat(secret, &st) == 0 && st.st_mode & 0o777 == 0o640)
            await asA.finish()
        }
    }

    @Test("B cannot prlimit, setpriority, sched_setaffinity or kill A")
    func crossProcessControls() async throws {
        try await withTarget { _, b, pid, _ in
            for action in ["prlimit", "setpriority", "setaffinity", "kill"] {
                let result = try await b.run([action, String(pid)])
                #expect(result.int("rc") == -1, "\(action) of the other extension succeeded")
                #expect(result.int("errno") == Int(EPERM), "\(action): errno \(result.int("errno") ?? 0)")
            }
            let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
            let nofile = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
            #expect(nofile.split(separator: " ").dropFirst(3).first == "256", "\(nofile)")
            #expect(kill(pid, 0) == 0, "the target must still be alive")
        }
    }

    @Test("B cannot connect to a path socket in A's container")
    func crossContainerSocket() async throws {
        try await withTarget { _, b, _, socket in
            let result = try await b.run(["connect", socket])
            #expect(result.int("rc") == -1)
            #expect(result.int("errno") == Int(EACCES))
        }
    }

    @Test("world-readable files outside the allowed system paths are not readable", .enabled(if: Landlock.abi > 0))
    func worldReadable() async throws {
        let runner = try ProbeRunner()
        try await finishing(runner) {
            let hostname = try await runner.run(["read-contents", "/etc/hostname"])
            #expect(hostname.int("fd") == -1)
            #expect(hostname.int("errno") == Int(EACCES))
            let listing = try await runner.run(["list", "/home"])
            #expect(listing.int("ok") == 0)
            // What a Swift program needs still is.
            let zone = try await runner.run(["read", "/etc/passwd"])
            #expect((zone.int("fd") ?? -1) >= 0)
        }
    }

    @Test("the host's data directory: the journal cannot be read, Bundles and Transfers not listed (file modes alone)")
    func dataDirectory() async throws {
        let runner = try ProbeRunner()
        try await finishing(runner) {
            let data = runner.root + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try DataDirectory.prepare(data)
            _ = try Journal(path: data + "/journal.sqlite")
            var policy = SandboxPolicy.standard
            policy.landlock = false // the modes alone must hold
            let journal = try await runner.run(["read", data + "/journal.sqlite"], policy: policy)
            #expect(journal.int("fd") == -1)
            #expect(journal.int("errno") == Int(EACCES))
            for directory in ["", "/Bundles", "/Transfers", "/Containers"] {
                let listing = try await runner.run(["list", data + directory], policy: policy)
                #expect(listing.int("ok") == 0, "\(data + directory) can be listed")
            }
            var st = stat()
            for file in ["/journal.sqlite", "/journal.sqlite-wal", "/journal.sqlite-shm"] where stat(data + file, &st) == 0 {
                #expect(st.st_mode & 0o777 == 0o600, "\(file) has mode \(String(st.st_mode & 0o777, radix: 8))")
            }
        }
    }
}

/// Runs `body` with `runners` and finishes them however it ends (a `defer` cannot await, and a
/// task started there may not run before the test process exits, leaving the probe's directory).
func finishing(_ runners: ProbeRunner..., body: () async throws -> Void) async throws {
    do { try await body() } catch {
        for runner in runners.reversed() { await runner.finish() }
        throw error
    }
    for runner in runners.reversed() { await runner.finish() }
}

/// Unix sockets as a system's services serve them, in a directory anyone may search and with
/// modes anyone may write (D-Bus's system bus, journald's `/dev/log`), and an abstract name.
/// The probes check, without blocking, whether anything reached them.
final class SystemServices {
    let directory: String
    let streamPath: String
    let datagramPath: String
    let abstractName = "sandglass-service-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let stream: Int32
    private let datagram: Int32
    private let abstract: Int32

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        streamPath = directory + "/bus.sock"
        datagramPath = directory + "/log.sock"
        stream = try Self.listen(at: Self.pathAddress(streamPath), type: SOCK_STREAM)
        datagram = try Self.listen(at: Self.pathAddress(datagramPath), type: SOCK_DGRAM)
        abstract = try Self.listen(at: Self.abstractAddress(abstractName), type: SOCK_STREAM)
        chmod(streamPath, 0o666)
        chmod(datagramPath, 0o666)
    }

    /// Whether a connection waits on the stream socket.
    var streamConnected: Bool { Self.accepts(stream) }
    /// Whether a datagram waits on the datagram socket.
    var datagramReceived: Bool {
        var byte: UInt8 = 0
        return recv(datagram, &byte, 1, Int32(MSG_DONTWAIT)) >= 0
    }
    /// Whether a connection waits on the abstract socket.
    var abstractConnected: Bool { Self.accepts(abstract) }

    /// Whether abstract `name` is free to bind.
    func canBind(_ name: String) -> Bool {
        guard let fd = try? Self.listen(at: Self.abstractAddress(name), type: SOCK_STREAM) else { return false }
        Glibc.close(fd)
        return true
    }

    func close() {
        [stream, datagram, abstract].forEach { Glibc.close($0) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func accepts(_ fd: Int32) -> Bool {
        let peer = accept(fd, nil, nil) // the socket does not block
        if peer >= 0 { Glibc.close(peer) }
        return peer >= 0
    }

    static func pathAddress(_ path: String) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        return (address, socklen_t(MemoryLayout<sockaddr_un>.size))
    }

    private static func abstractAddress(_ name: String) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { UnsafeMutableRawBufferPointer(rebasing: $0[1...]).copyBytes(from: name.utf8) }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.utf8.count))
    }

    static func listen(at address: (sockaddr_un, socklen_t), type: __socket_type) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var (sun, length) = address
        let bound = withUnsafePointer(to: &sun) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard fd >= 0, bound == 0, type == SOCK_DGRAM || Glibc.listen(fd, 8) == 0 else {
            let e = errno
            if fd >= 0 { Glibc.close(fd) }
            throw SandboxError(.channel, errno: e, "a test service's socket")
        }
        return fd
    }
}
