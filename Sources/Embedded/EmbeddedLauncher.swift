import Glibc
import SandglassHost
import Synchronization
import WidgetKit

/// The embedded backend of the host's ``ProcessLauncher``: "launching" an extension runs the
/// SDK's runtime for the widgets (or a Today extension's principal classes) a test gave for its
/// bundle identifier inside the test's process, on the runtime's own threads, over a socketpair. No process is spawned; the pids
/// recorded are above the kernel's `PID_MAX_LIMIT`, so they can never name a real process.
///
/// A kill ends the instance as the host sees a SIGKILL: the exit is recorded at once as signal
/// 9, and the channel the host closes when it reaps stops the runtime. Code of the extension
/// still running then (a provider that blocks a thread forever) is not stopped: an embedded
/// widget that "hangs" should drop its completion rather than block.
///
/// ```swift
/// var configuration = HostConfiguration.temporary()
/// configuration.launcher = await EmbeddedLauncher(["com.example.hanging.widget": .init(widget: Hanging.self)])
/// // A Today extension: the class its Info.plist names (NSExtensionPrincipalClass) is made by name.
/// EmbeddedLauncher(["com.example.today": .init(principalClasses: ["Today.TodayViewController": TodayViewController.self])])
/// ```
package final class EmbeddedLauncher: ProcessLauncher, Sendable {
    private let widgets: [String: InProcessRuntime.Widgets]
    private let counts = Mutex(Counts())

    /// How many instances were launched, and how many have not ended.
    package struct Counts: Sendable, Equatable {
        package var launched = 0
        package var running = 0
    }

    /// A launcher serving `widgets` for each extension's bundle identifier.
    package init(_ widgets: [String: InProcessRuntime.Widgets]) {
        self.widgets = widgets
    }

    /// Launches and live instances so far.
    package var launches: Counts { counts.withLock { $0 } }

    /// The embedded runtime enforces no memory budget: the host's watchdog reads no /proc for it.
    package var memoryEnforcement: String { "watchdog" }

    package func launch(_ request: LaunchRequest) throws -> LaunchedProcess {
        guard let served = widgets[request.bundleIdentifier] else {
            throw EmbeddedLaunchError(
                "no widgets were given for \(request.bundleIdentifier); pass them to EmbeddedLauncher([\"\(request.bundleIdentifier)\": …])"
            )
        }
        let process = try EmbeddedProcess(pid: Self.nextPID.add(1, ordering: .relaxed).newValue) { [self] in
            counts.withLock { $0.running -= 1 }
        }
        counts.withLock {
            $0.launched += 1
            $0.running += 1
        }
        var environment = request.environment
        environment[EmbeddedExtension.processIdentifierVariable] = String(process.pid)
        let runtime = InProcessRuntime(
            widgets: served, bundleIdentifier: request.bundleIdentifier, environment: environment,
            fd: process.extensionFD
        ) { [process] ending in
            process.ended(status: ending.exitStatus << 8)
        }
        process.runtime = runtime
        runtime.start()
        return LaunchedProcess(
            pid: process.pid, exitFD: process.exitFD, channelFD: process.channelFD, outputFD: process.outputFD, control: process)
    }

    /// The last pid given: pids start above `PID_MAX_LIMIT` (2^22), which no real pid reaches.
    private static let nextPID = Atomic<Int32>(1 << 22)
}

/// Why an embedded extension could not be launched.
package struct EmbeddedLaunchError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
