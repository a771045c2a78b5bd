import Foundation
import SandglassEmbedded
import SandglassHost
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

    /// The backends the suite runs: both. (`SANDGLASS_EMBEDDED_TESTS=0` leaves the embedded one
    /// out, to tell a failure of the backend from one of the behaviour.)
    static let tested: [Backend] = testEnvironment["SANDGLASS_EMBEDDED_TESTS"] == "0" ? [.linux] : [.embedded, .linux]
}

/// An example app both backends can run: its bundle's name, and its widgets run embedded.
struct BackendApp: Sendable {
    let name: String
    let widgets: @MainActor @Sendable () -> [String: InProcessRuntime.Widgets]
}

/// The host of a test on `backend`: `apps` installed (not started), the launcher embedded or
/// the sandbox's. On the embedded backend the test also checks that no process was spawned
/// (every pid recorded is above `PID_MAX_LIMIT`, one per embedded launch) and that every
/// embedded instance ended with the host.
func withHost(
    on backend: Backend, apps: [BackendApp],
    _ configure: (inout HostConfiguration) -> Void = { _ in },
    _ body: (ExtensionHost) async throws -> Void
) async throws {
    switch backend {
    case .linux:
        try await withHost(configure) { host in
            for app in apps { try await host.install(Examples.app(app.name)) }
            try await body(host)
        }
    case .embedded:
        var widgets: [String: InProcessRuntime.Widgets] = [:]
        for app in apps { widgets.merge(await MainActor.run { app.widgets() }) { $1 } }
        let launcher = EmbeddedLauncher(widgets)
        let bundles = try apps.map { try EmbeddedBundle(template: Examples.template($0.name)) }
        defer { bundles.forEach { $0.remove() } }
        try await withHost({
            configure(&$0)
            $0.launcher = launcher
        }) { host in
            for bundle in bundles { try await host.install(bundle.path) }
            try await body(host)
            let spawned = await host.events().filter { $0.kind == .spawned }
            #expect(spawned.allSatisfy { ($0.pid ?? 0) >= 1 << 22 }, "embedded pids are above PID_MAX_LIMIT: no process was spawned")
            #expect(spawned.count == launcher.launches.launched)
        }
        #expect(launcher.launches.running == 0, "every embedded instance ended with the host")
    }
}

extension Examples {
    /// The template of `name` in the source tree (Examples/Bundles: its Info.plists, no executable).
    static func template(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/Bundles/\(name)").path
    }
}
