import SandglassIPC
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process entry point behind `@main` on a `Widget` or `WidgetBundle`.
///
/// Contract with the host:
/// - `SANDGLASS_IPC_FD` names the extension's end of the IPC socketpair (normally 3); without
///   it the process says how to run it and exits with status 64.
/// - `SANDGLASS_BUNDLE_IDENTIFIER` is the extension's `CFBundleIdentifier`.
/// - The host gone (end of stream or a socket error): exit status 0 at once. A frame from
///   the host that does not decode, or one out of order: a line on stderr, exit status 70.
///   The host refusing the extension: a line on stderr, exit status 76.
/// - The main thread reads the host's first frames (``ExtensionRuntime/startOnMainThread()``),
///   then serves the main queue (`dispatchMain()`); requests run off it.
@usableFromInline
enum ExtensionMain {
    /// What the process prints when it is started by hand.
    static let notUnderHost =
        "This is a Sandglass widget extension; it runs under the host: sandglass run YourApp.app\n"

    /// Serves `widgets` to the host for the life of the process.
    @MainActor @usableFromInline
    static func run(descriptors widgets: [WidgetDescriptor]) -> Never {
        let runtime = makeRuntime(widgets: widgets, environment: hostEnvironment())
        runtime.startOnMainThread()
        dispatchMain()
    }

    /// The variables the host sets for the runtime, read with `getenv`: Foundation's
    /// `ProcessInfo.environment` copies the whole environment into a dictionary, work a cold
    /// start does not need.
    static func hostEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["SANDGLASS_IPC_FD", "SANDGLASS_BUNDLE_IDENTIFIER", TodayExtensionMain.principalClassVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The process's runtime on the descriptor `SANDGLASS_IPC_FD` names, installed for
    /// `WidgetCenter`, ending the process through ``finish(_:)``. Exits with status 64 when
    /// the variable is missing or names no open descriptor.
    static func makeRuntime(
        widgets: [WidgetDescriptor], role: ExtensionRole = .widgetKit,
        environment: [String: String]
    ) -> ExtensionRuntime {
        guard let fdText = environment["SANDGLASS_IPC_FD"] else {
            Syscalls.writeStandardError(notUnderHost)
            Syscalls.exitProcess(64)
        }
        guard let fd = Int32(fdText), fd >= 0, Syscalls.isOpen(fd) else {
            Syscalls.writeStandardError("SANDGLASS_IPC_FD=\(fdText) names no open file descriptor.\n" + notUnderHost)
            Syscalls.exitProcess(64)
        }
        Syscalls.ignoreBrokenPipe()
        if !AppGroupContainers.declared.isEmpty {
            // What the extension makes in a group's container stays the group's (its other
            // extensions run as other users of the same group).
            Syscalls.shareWithGroup()
        }
        Syscalls.lineBufferStandardOutput()
        let bundleIdentifier = environment["SANDGLASS_BUNDLE_IDENTIFIER"] ?? ProcessInfo.processInfo.processName
        let runtime = ExtensionRuntime(widgets: widgets, bundleIdentifier: bundleIdentifier, role: role, fd: fd) { ending in
            finish(ending)
        }
        ExtensionRuntime.current.withLock { $0 = runtime }
        return runtime
    }

    /// Ends the process the way the contract says for `ending`.
    static func finish(_ ending: ExtensionRuntime.Ending) -> Never {
        switch ending {
        case .hostGone:
            Syscalls.exitProcess(0)
        case .protocolViolation(let reason):
            Syscalls.writeStandardError("sandglass: \(reason)\n")
            Syscalls.exitProcess(70)
        case .refused(let reason):
            Syscalls.writeStandardError("sandglass: \(reason)\n")
            Syscalls.exitProcess(76)
        }
    }
}
