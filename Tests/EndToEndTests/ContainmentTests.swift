import Foundation
import Glibc
import SandglassHost
import SandglassReport
import Testing

/// Hostile extensions (Hostile.app) are contained with a typed verdict: a container over its
/// quota, a system call of another architecture, limits raised in its own Info.plist.
@Suite("Containment", .timeLimit(.minutes(2)))
struct ContainmentTests {
    @Test("writing past its container quota is killed with reason resource and a container.overQuota event; under it, not")
    func containerQuota() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let over = try await host.waitFor("container.overQuota", timeout: .seconds(30)) {
                $0.bundle == "com.example.hostile.fillscontainer"
            }
            #expect(over.int("allowedBytes") == 4 << 20)
            #expect((over.int("bytes") ?? 0) > 4 << 20)
            #expect(over.int("allowedInodes") == 10_000)
            let killed = try await host.waitFor("killed") { $0.bundle == "com.example.hostile.fillscontainer" && $0.pid == over.pid }
            #expect(killed.string("reason") == "resource")
            #expect((killed.string("detail") ?? "").contains("over its quota"))
            // The one that wrote 1 MiB of its 4 answered, and was never over.
            _ = try await host.waitFor("activation.end", timeout: .seconds(30)) {
                $0.bundle == "com.example.hostile.writesalittle" && $0.string("kind") == "timeline" && $0.string("outcome") == "ok"
            }
            let events = await host.events()
            #expect(!events.contains { $0.kind == .containerOverQuota && $0.bundle == "com.example.hostile.writesalittle" })
            // Never for its quota (a budget kill of a starved launch under the whole suite's load is not this test's concern).
            #expect(
                !events.contains {
                    $0.kind == .killed && $0.bundle == "com.example.hostile.writesalittle" && $0.string("reason") == "resource"
                })
        }
    }

    @Test("writing past the quota into an app group's container is killed with reason resource, naming the group")
    func appGroupQuota() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let bundle = "com.example.hostile.fillsgroup"
            let over = try await host.waitFor("container.overQuota", timeout: .seconds(30)) { $0.bundle == bundle }
            #expect(over.string("group") == "group.com.example.hostile")
            #expect(over.int("allowedBytes") == 4 << 20)
            #expect((over.int("bytes") ?? 0) > 4 << 20)
            let killed = try await host.waitFor("killed") { $0.bundle == bundle && $0.pid == over.pid }
            #expect(killed.string("reason") == "resource")
            #expect((killed.string("detail") ?? "").contains("app group group.com.example.hostile"))
        }
    }

    @Test("no file grows past the container quota (RLIMIT_FSIZE); the writer is killed with reason resource")
    func fileSizeAtQuota() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let killed = try await host.waitFor("killed", timeout: .seconds(30)) { $0.bundle == "com.example.hostile.bigfile" }
            #expect(killed.string("reason") == "resource")
            let exited = try await host.waitFor("exited") { $0.pid == killed.pid }
            if exited.string("signal") == "SIGXFSZ" {
                #expect((killed.string("detail") ?? "").contains("RLIMIT_FSIZE"))
            }
            // Where SIGXFSZ is ignored (a disposition inherited from the host), the write fails
            // with EFBIG at the quota instead: the file never holds more.
            let said = (await host.events()).compactMap { $0.bundle == killed.bundle ? $0.string("message") : nil }
            for line in said where line.hasPrefix("one file of ") {
                let mib = Int(line.dropFirst("one file of ".count).prefix { $0.isNumber }) ?? .max
                #expect(mib <= 4, "a file grew past the quota: \(line)")
            }
        }
    }

    @Test("an extension that fills its container while idle, after answering, is killed with reason resource")
    func idleWriter() async throws {
        try await withHost({ $0.budgetOverrides.idle = .seconds(60) }) { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let bundle = "com.example.hostile.idlewriter"
            let answered = try await host.waitFor("activation.end", timeout: .seconds(30)) {
                $0.bundle == bundle && $0.string("kind") == "timeline"
            }
            #expect(answered.string("outcome") == "ok")
            let over = try await host.waitFor("container.overQuota", timeout: .seconds(30)) { $0.bundle == bundle }
            #expect(over.pid == answered.pid)
            let killed = try await host.waitFor("killed") { $0.bundle == bundle && $0.pid == answered.pid }
            #expect(killed.string("reason") == "resource")
        }
    }

    @Test("files written, unlinked and held open count toward the quota: on the disk, in no directory, still its")
    func hiddenWriter() async throws {
        try await withHost({ $0.budgetOverrides.idle = .seconds(60) }) { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let bundle = "com.example.hostile.hiddenwriter"
            let over = try await host.waitFor("container.overQuota", timeout: .seconds(30)) { $0.bundle == bundle }
            #expect((over.int("bytes") ?? 0) > 4 << 20, "\(over)")
            let killed = try await host.waitFor("killed") { $0.bundle == bundle && $0.pid == over.pid }
            #expect(killed.string("reason") == "resource")
        }
    }

    @Test("a container still over its quota is killed again at once at its next launch")
    func overQuotaAtLaunch() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let first = try await host.waitFor("killed", timeout: .seconds(30)) {
                $0.bundle == "com.example.hostile.fillscontainer" && $0.string("reason") == "resource"
            }
            await host.reloadTimelines(ofKind: "Misbehaving")
            let again = try await host.waitFor("killed", timeout: .seconds(30)) {
                $0.bundle == "com.example.hostile.fillscontainer" && $0.string("reason") == "resource" && $0.pid != first.pid
            }
            #expect(again.string("phase") == "launch" || (again.string("detail") ?? "").contains("over its quota"))
        }
    }

    @Test(
        "--require-sandbox: a host that would go without a layer refuses to start, naming it; one with every layer starts, its run.start without a gap"
    )
    func requiredSandbox() async throws {
        var configuration = HostConfiguration.temporary()
        defer { DirectoryTree.remove(configuration.dataDirectory) }
        configuration.requiresEverySandboxLayer = true
        configuration.sandbox.landlock = false
        do {
            var shared = configuration
            shared.sandbox.landlock = true
            shared.sandbox.extensionUser = .id(uid: 50_999, gid: 50_999)
            _ = try await ExtensionHost(shared)
            Issue.record("a host whose extensions share a uid started")
        } catch {
            #expect("\(error)".contains("identities (none (every extension runs as uid 50999: ExtensionUser.id))"), "\(error)")
        }
        do {
            _ = try await ExtensionHost(configuration)
            Issue.record("a host without Landlock started")
        } catch {
            #expect("\(error)".contains("the sandbox would go without landlock (off)"), "\(error)")
            #expect("\(error)".contains("--require-sandbox"), "\(error)")
            #expect("\(error)".contains("turn landlock back on in the host's configuration"), "\(error)")
        }
        // Every layer this machine gives: a host that requires them starts exactly when none is missing.
        try await withHost { plain in
            let events = await plain.events()
            #expect(events.contains { $0.kind == .runStart })
            let gaps = RunLog(source: "plain", events: events).sandboxGaps
            var required = HostConfiguration.temporary()
            defer { DirectoryTree.remove(required.dataDirectory) }
            required.requiresEverySandboxLayer = true
            do {
                let host = try await ExtensionHost(required)
                #expect(gaps.isEmpty, "started without \(gaps)")
                await host.shutdown()
            } catch {
                #expect(!gaps.isEmpty, "refused with every layer there: \(error)")
            }
        }
    }

    @Test("a bundle's SandglassLimits cannot raise a limit: capped at the host's, recorded, and the spawned line shows the cap")
    func limitsCapped() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            let events = await host.events()
            let caps = events.filter { $0.kind == .limitsCapped && $0.bundle == "com.example.hostile.writesalittle" }
            let memory = try #require(caps.first { $0.string("key") == "MemoryMiB" })
            #expect(memory.double("asked") == 100_000)
            #expect(memory.double("granted") == 30)
            let idle = try #require(caps.first { $0.string("key") == "IdleSeconds" })
            #expect(idle.double("asked") == 1e9)
            #expect(idle.double("granted") == 5)
            // Asking for less is no cap.
            #expect(!caps.contains { $0.string("key") == "ContainerMiB" })
            await host.start()
            let spawned = try await host.waitFor("spawned") { $0.bundle == "com.example.hostile.writesalittle" }
            #expect(spawned.int("memoryLimitBytes") == 30 << 20)
        }
    }

    @Test("the operator's budget is the ceiling: a bundle may ask for less, not more")
    func operatorCeiling() async throws {
        try await withHost({ $0.budgetOverrides.memoryBytes = 40 << 20 }) { host in
            try await host.install(Examples.app("Hostile.app"))
            let memory = try #require(await host.events().first { $0.kind == .limitsCapped && $0.string("key") == "MemoryMiB" })
            #expect(memory.double("granted") == 40)
        }
    }

    @Test("a system call through int 0x80 kills the process, recorded as a sandbox violation")
    func otherArchitecture() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Hostile.app"))
            await host.start()
            let killed = try await host.waitFor("killed", timeout: .seconds(30)) { $0.bundle == "com.example.hostile.int80" }
            #expect(killed.string("reason") == "sandboxViolation")
            #expect(
                killed.string("detail") == "made a system call of another architecture (i386 int 0x80 or x32), which the sandbox forbids")
            let exited = try await host.waitFor("exited") { $0.pid == killed.pid }
            #expect(exited.string("signal") == "SIGSYS")
            let end = try await host.waitFor("activation.end") { $0.bundle == killed.bundle && $0.string("kind") == "timeline" }
            #expect(end.string("reason") == "sandboxViolation")
            #expect(!(await host.events()).contains { $0.kind == .log && ($0.string("message") ?? "").contains("int 0x80 returned") })
        }
    }
}
