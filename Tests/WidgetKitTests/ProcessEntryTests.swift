import SandglassIPC
import Testing

@testable import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

/// Runs the process's runtime as `@main` does, but parks the test's task instead of calling
/// `dispatchMain()` (which libdispatch refuses inside a main-queue block): the runtime's
/// ending ends the child process.
func serveUntilTheProcessEnds(fd: Int32) async throws {
    let widgets = await MainActor.run { descriptors(of: TestBundle().body) }
    let runtime = ExtensionMain.makeRuntime(widgets: widgets, environment: ["SANDGLASS_IPC_FD": String(fd)])
    runtime.start()
    await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
}

/// The process contract of `@main`, checked in child processes with exit tests: the real
/// `main()` where it ends before `dispatchMain()`, the same runtime and ending otherwise.
@Suite("the process entry point")
struct ProcessEntryTests {
    @Test("without SANDGLASS_IPC_FD it says how to run it and exits with status 64")
    func notUnderHost() async throws {
        let result = await #expect(processExitsWith: .exitCode(64), observing: [\.standardErrorContent]) {
            unsetenv("SANDGLASS_IPC_FD")
            await MainActor.run { ScoreWidget.main() }
        }
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError == "This is a Sandglass widget extension; it runs under the host: sandglass run YourApp.app\n")
    }

    @Test("a SANDGLASS_IPC_FD that names no open descriptor exits with status 64")
    func closedDescriptor() async {
        await #expect(processExitsWith: .exitCode(64)) {
            // A descriptor that cannot be open: past this process's limit (a number below it may
            // be open, inherited or opened meanwhile by the test runner's threads).
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            setenv("SANDGLASS_IPC_FD", "\(min(UInt64(Int32.max), UInt64(limit.rlim_cur) + 1))", 1)
            await MainActor.run { ScoreWidget.main() }
        }
    }

    @Test("the host gone: exit status 0")
    func hostGone() async {
        await #expect(processExitsWith: .exitCode(0)) {
            let (host, extensionFD) = try HostEnd.makePair()
            setenv("SANDGLASS_IPC_FD", String(extensionFD), 1)
            host.close()
            await MainActor.run { TestBundle.main() }
        }
    }

    @Test("a frame from the host that does not decode: the reason on stderr, exit status 70")
    func garbageFromHost() async throws {
        let result = await #expect(processExitsWith: .exitCode(70), observing: [\.standardErrorContent]) {
            let (host, extensionFD) = try HostEnd.makePair()
            setenv("SANDGLASS_IPC_FD", String(extensionFD), 1)
            try host.sendBytes([0, 0, 0, 1, 0xEE])
            try await serveUntilTheProcessEnds(fd: extensionFD)
        }
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError == "sandglass: the host sent a frame that does not decode: unknown message type 0xEE\n")
    }

    @Test("the host refusing the extension: the reason on stderr, exit status 76")
    func refusal() async throws {
        let result = await #expect(processExitsWith: .exitCode(76), observing: [\.standardErrorContent]) {
            let (host, extensionFD) = try HostEnd.makePair()
            setenv("SANDGLASS_IPC_FD", String(extensionFD), 1)
            try host.send(.error(ErrorReport(code: .unsupportedVersion, message: "protocol 1.0 is too old")))
            try await serveUntilTheProcessEnds(fd: extensionFD)
        }
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("the host refused this extension (unsupportedVersion): protocol 1.0 is too old"))
    }
}
