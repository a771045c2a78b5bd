import CSandbox
import Foundation
import Glibc
@testable import SandglassHost
import Testing

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

    @Test("internet sockets fail with EACCES and the host hears of the denial; Unix sockets work")
    func internetSocketsDenied() async throws {
        try await withRunner { runner in
            let inet = try await runner.run(["socket-inet"])
            #expect(inet.int("fd") == -1)
            #expect(inet.int("errno") == Int(EACCES))
            if (try? SeccompProgram.shared.get())?.usesNotifications == true {
                #expect(inet.denials == ["socket"])
            }
            let unix = try await runner.run(["socket-unix"])
            #expect((unix.int("fd") ?? -1) >= 0)
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
    @Test("a host running as root runs extensions as nobody, which cannot read root's files", .enabled(if: getuid() == 0))
    func unprivilegedUser() async throws {
        let runner = try ProbeRunner()
        defer { Task { await runner.finish() } }
        let identity = try await runner.run(["identity"])
        #expect(identity.int("uid") == 65534)
        let shadow = try await runner.run(["read", "/etc/shadow"])
        #expect(shadow.int("fd") == -1)
        #expect(shadow.int("errno") == Int(EACCES))
    }
}
