import Foundation
import SandglassEmbedded
@_spi(Measurements) import SandglassHost
import Synchronization
import Testing
import WidgetKit

/// Where a test's extensions run, as Hummingbird runs one test on `.router` or `.live`: real
/// sandboxed children of the host (`linux`, the example bundles of `make examples`), or the
/// SDK's runtime inside the test's process (`embedded`: the same bundles' Info.plists, the
/// widgets of ``EmbeddedWidgets``, no process spawned).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded
    case linux

    var testDescription: String { rawValue }

    /// The backends the behaviour tests run on: embedded — no process, the host's policy in
    /// milliseconds; the real-process tests of the sandbox, kills and relaunch stay on Linux.
    /// `SANDGLASS_TEST_BACKENDS=both` runs each body on Linux as well (the same assertions
    /// against real children: what tells a failure of the backend from one of the behaviour),
    /// `linux` on Linux alone.
    static let tested: [Backend] =
        switch testEnvironment["SANDGLASS_TEST_BACKENDS"] {
        case "both": [.embedded, .linux]
        case "linux": [.linux]
        default: [.embedded]
        }
}

/// An example app both backends can run: its bundle's name, and its widgets run embedded.
struct BackendApp: Sendable {
    let name: String
    let widgets: @MainActor @Sendable () -> [String: InProcessRuntime.Widgets]
}

/// The host of a test on `backend`: `apps` installed (not started) unless `installing` is false,
/// the launcher embedded or the sandbox's. On the embedded backend the test also checks that no
/// process was spawned (every pid recorded is above `PID_MAX_LIMIT`, one per embedded launch)
/// and that every embedded instance ended with the host.
func withHost(
    on backend: Backend, apps: [BackendApp], installing: Bool = true,
    _ configure: (inout HostConfiguration) -> Void = { _ in },
    _ body: (ExtensionHost) async throws -> Void
) async throws {
    let bundles = try installing ? BackendBundles(backend, apps) : BackendBundles(backend, [])
    defer { bundles.remove() }
    switch backend {
    case .linux:
        try await withHost(configure) { host in
            for app in apps where installing { try await host.install(bundles.path(app)) }
            try await body(host)
        }
    case .embedded:
        let launcher = await backend.launcher(for: apps)
        // Every spawn, seen as it is recorded: a host with a bounded event history forgets the early ones.
        let spawned = Mutex<[Int32]>([])
        try await withHost({
            // Embedded extensions draw their views on this process's main queue, one after
            // another and beside every other embedded test's: on a loaded machine a view waits
            // there longer than a placeholder's 1 s. A placeholder or snapshot whose bundle gives
            // no budget gets 10 s here; a test that sets one keeps its own.
            $0.budgetOverrides.placeholder = .seconds(10)
            $0.budgetOverrides.snapshot = .seconds(10)
            configure(&$0)
            $0.launcher = launcher
        }) { host in
            _ = await host.observeStamped([.spawned]) { event, _ in spawned.withLock { $0.append(event.pid ?? 0) } }
            for app in apps where installing { try await host.install(bundles.path(app)) }
            try await body(host)
        }
        // Counted once the host is gone: while it runs, a launch may have begun and not yet be recorded.
        let pids = spawned.withLock { $0 }
        #expect(pids.allSatisfy { $0 >= 1 << 22 }, "embedded pids are above PID_MAX_LIMIT: no process was spawned")
        #expect(pids.count == launcher?.launches.launched)
        #expect(launcher?.launches.running == 0, "every embedded instance ended with the host")
    }
}

extension Backend {
    /// The launcher for `apps`: on `embedded` one serving their widgets; on `linux` nil (the sandbox's).
    func launcher(for apps: [BackendApp]) async -> EmbeddedLauncher? {
        guard self == .embedded else { return nil }
        var widgets: [String: InProcessRuntime.Widgets] = [:]
        for app in apps { widgets.merge(await MainActor.run { app.widgets() }) { $1 } }
        return EmbeddedLauncher(widgets)
    }
}

/// The bundles of example apps on a backend, for a test to install, copy or edit: on `linux` the
/// built examples (`make examples`), on `embedded` copies of their templates whose executables
/// never run. Call ``remove()`` when done.
struct BackendBundles {
    private let paths: [String: String]
    private let embedded: [EmbeddedBundle]

    init(_ backend: Backend, _ apps: [BackendApp]) throws {
        switch backend {
        case .linux:
            paths = try Dictionary(apps.map { ($0.name, try Examples.app($0.name)) }) { $1 }
            embedded = []
        case .embedded:
            embedded = try apps.map { try EmbeddedBundle(template: Examples.template($0.name)) }
            paths = Dictionary(zip(apps.map(\.name), embedded.map(\.path))) { $1 }
        }
    }

    /// The bundle of `app`, which must be one of those given.
    func path(_ app: BackendApp) -> String {
        guard let path = paths[app.name] else { preconditionFailure("\(app.name) was not given to BackendBundles") }
        return path
    }

    /// Deletes the embedded bundles.
    func remove() {
        embedded.forEach { $0.remove() }
    }
}

extension Examples {
    /// The template of `name` in the source tree (Examples/Bundles: its Info.plists, no executable).
    static func template(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/Bundles/\(name)").path
    }
}
