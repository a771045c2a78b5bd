import Testing

@testable import SandglassHost

/// The trace's line for a run's start: the sandbox's layers, and those the run goes without.
@Suite("Trace of a run's start")
struct TraceRendererTests {
    @Test(
        "the layers a run goes without (off, or unavailable) are named last, marked: a weaker sandbox is never only in the middle of a line"
    )
    func sandboxGaps() throws {
        func line(_ sandbox: [(String, JSONValue)]) throws -> String {
            try #require(
                TraceRenderer.render(HostEvent(t: 0, name: "run.start", fields: [("clock", "real"), ("sandbox", .object(sandbox))])))
        }
        let whole = try line([("landlock", "ABI 7"), ("namespaces", "mount and network (/proc shows each extension its own processes)")])
        #expect(!whole.contains("⚠"), "\(whole)")
        let weaker = try line([
            ("landlock", "unavailable"), ("namespaces", "unavailable: the host lacks CAP_SYS_ADMIN and CAP_SYS_CHROOT"), ("seccomp", "off"),
            ("rlimits", "on"), ("cgroup", "none (no writable cgroup v2 or v1 memory hierarchy)"), ("memory", "watchdog")
        ])
        #expect(weaker.hasSuffix(" · ⚠ without landlock, namespaces, seccomp, cgroup"), "\(weaker)")
    }
}
