// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

/// The language settings every Swift target builds with (the probe adds the Swift 5 mode).
let swiftSettings: [SwiftSetting] = [
    // `any P` for every existential, so that what costs a box says so.
    .enableUpcomingFeature("ExistentialAny"),
    // A file uses members only from the modules it imports itself.
    .enableUpcomingFeature("MemberImportVisibility"),
    // Nonisolated async functions run on the caller's actor (the host's loop-confined parts:
    // on the host, whose executor is its event loop), not on the global executor.
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    // A conformance of a global-actor-isolated type is isolated to that actor.
    .enableUpcomingFeature("InferIsolatedConformances"),
    // A `[weak x]` capture is a constant, as a capture list's other entries are.
    .enableUpcomingFeature("ImmutableWeakCaptures")
    // Not InternalImportsByDefault: every module a public declaration names would need
    // `public import` in every such file, and what `import WidgetKit` or `import SandglassHost`
    // brings into a user's file would change.
]

/// Sandglass: the system side of widget extensions, on Linux.
///
/// Products:
/// - `WidgetKit`: the SDK an extension links (modules WidgetKit, SwiftUI, DeveloperToolsSupport,
///   AppIntents, Intents, CoreLocation, NotificationCenter, os and OSLog, so one product dependency
///   makes every import work), Apple's API shapes.
/// - `SandglassHost`: the host as a library, for users' own tests.
/// - `SandglassTesting`: the harness's testing power on top of the host: chaos (kills at protocol
///   steps, of the host itself too; suspension; memory pressure; the stress plan and its
///   summary), the invariant checker, the fixture HTTP server.
/// - `SandglassReport`: what is made of a run's event log: the HTML report, the Perfetto trace,
///   the run analysis, and the shards of a campaign that are merged into one.
/// - `SandglassIPC`: the protocol's frames and binary codec (no I/O).
/// - `sandglass`: the command-line tool.
///
/// The daemon's parts (control socket, metrics, services) are the module SandglassDaemon.
let package = Package(
    name: "sandglass",
    platforms: [.macOS(.v14)],
    products: [
        .library(
            name: "WidgetKit",
            targets: [
                "WidgetKit", "SwiftUI", "DeveloperToolsSupport", "AppIntents", "Intents", "CoreLocation", "NotificationCenter", "os",
                "OSLog"
            ]),
        .library(name: "SandglassHost", targets: ["SandglassHost"]),
        .library(name: "SandglassTesting", targets: ["SandglassTesting"]),
        .library(name: "SandglassReport", targets: ["SandglassReport"]),
        /// The IPC frames and codec alone (for the microbenchmarks in Benchmarks/).
        .library(name: "SandglassIPC", targets: ["SandglassIPC"]),
        .executable(name: "sandglass", targets: ["sandglass"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The daemon (`sandglass serve`): graceful shutdown on SIGTERM, Prometheus metrics.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1")
    ],
    targets: [
        .target(
            name: "SandglassIPC",
            path: "Sources/IPC",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WidgetKit",
            dependencies: ["SandglassIPC", "SwiftUI", "Intents", "DeveloperToolsSupport", "SandglassPreviewMacros"],
            path: "Sources/Extension",
            swiftSettings: swiftSettings
        ),
        /// The views of widgets: the subset of SwiftUI that WidgetKit permits, evaluated and laid
        /// out in the extension's process.
        .target(
            name: "SwiftUI",
            dependencies: ["SandglassIPC", "AppIntents", "DeveloperToolsSupport", "SandglassPreviewMacros"],
            path: "Sources/SwiftUI",
            swiftSettings: swiftSettings
        ),
        /// `Preview`, the type Xcode previews are made of, and its traits: what SwiftUI's and
        /// WidgetKit's `#Preview` macros expand to. Sandglass compiles previews and never runs
        /// them.
        .target(name: "DeveloperToolsSupport", path: "Sources/DeveloperToolsSupport", swiftSettings: swiftSettings),
        /// The compiler plugin of `#Preview`: it speaks the compiler's plugin protocol itself,
        /// without swift-syntax, and expands each preview to a declaration that type-checks its
        /// arguments against the SDK.
        .macro(name: "SandglassPreviewMacros", path: "Sources/PreviewMacros", swiftSettings: swiftSettings),
        .target(
            name: "AppIntents",
            path: "Sources/AppIntents",
            swiftSettings: swiftSettings
        ),
        /// `INIntent` and `INObject` for `IntentConfiguration` widgets (`import Intents`).
        .target(name: "Intents", path: "Sources/Intents", swiftSettings: swiftSettings),
        .target(
            name: "CoreLocation",
            dependencies: ["WidgetKit", "SandglassIPC"],
            path: "Sources/CoreLocation",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NotificationCenter",
            dependencies: ["WidgetKit"],
            path: "Sources/NotificationCenter",
            swiftSettings: swiftSettings
        ),
        /// `Logger` and `os_log` (`import os`, `import OSLog`): messages to the host's event log.
        .target(name: "os", dependencies: ["WidgetKit", "SandglassIPC"], path: "Sources/os", swiftSettings: swiftSettings),
        .target(name: "OSLog", dependencies: ["os"], path: "Sources/OSLog", swiftSettings: swiftSettings),
        .target(
            name: "CSandbox",
            path: "Sources/CSandbox",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("seccomp")]
        ),
        /// The host's HTTP transport on the system's libcurl (HTTP/1.1, HTTP/2, TLS): the real
        /// downloads and inline requests, streamed with Range resume.
        .target(name: "CHTTP", path: "Sources/CHTTP", linkerSettings: [.linkedLibrary("curl")]),
        /// The system's SQLite, for the durable journal of sessions, tasks and undelivered events.
        .target(name: "CSQLite", path: "Sources/CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "SandglassHost",
            dependencies: [
                "SandglassIPC",
                "CSandbox",
                "CHTTP",
                "CSQLite"
            ],
            path: "Sources/Host",
            swiftSettings: swiftSettings
        ),
        /// Chaos, invariants and the fixture server: test-only power, reaching into the host
        /// through its `package` hooks.
        .target(
            name: "SandglassTesting",
            dependencies: [
                "SandglassHost",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ],
            path: "Sources/Testing",
            swiftSettings: swiftSettings
        ),
        /// Reports, traces and run analysis, made from event logs.
        .target(
            name: "SandglassReport",
            dependencies: ["SandglassHost", "SandglassIPC"],
            path: "Sources/Report",
            swiftSettings: swiftSettings
        ),
        /// The embedded backend of the host's process launcher, for the package's tests: the
        /// SDK's runtime in the test's process instead of a sandboxed child (not a product).
        .target(
            name: "SandglassEmbedded",
            dependencies: ["SandglassHost", "WidgetKit", "CSandbox"],
            path: "Sources/Embedded",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SandglassDaemon",
            dependencies: [
                "SandglassHost",
                "CSandbox",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus")
            ],
            path: "Sources/Daemon",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sandglass",
            dependencies: [
                "SandglassHost",
                "SandglassTesting",
                "SandglassReport",
                "SandglassDaemon",
                "CSandbox",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift")
            ],
            path: "Sources/sandglass",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "IPCTests", dependencies: ["SandglassIPC"], path: "Tests/IPCTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "WidgetKitTests",
            dependencies: [
                "WidgetKit", "SwiftUI", "DeveloperToolsSupport", "AppIntents", "Intents", "CoreLocation", "NotificationCenter", "os",
                "OSLog",
                // ChildProcess, to run the preview plugin (not Foundation's Process: see its documentation)
                "SandglassHost"
            ], path: "Tests/WidgetKitTests", swiftSettings: swiftSettings),
        .target(name: "ProbeSupport", path: "Tests/ProbeSupport"),
        /// Property lists written by hand for the tests (binary ones Foundation's writer never makes).
        .target(name: "PropertyListSupport", path: "Tests/PropertyListSupport", swiftSettings: swiftSettings),
        .executableTarget(
            name: "sandbox-probe", dependencies: ["ProbeSupport"], path: "Tests/Probe",
            swiftSettings: swiftSettings + [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "HostTests",
            dependencies: [
                "SandglassHost", "SandglassTesting", "SandglassReport", "CSandbox", "sandbox-probe", "ProbeSupport", "SandglassIPC",
                "PropertyListSupport", .product(name: "NIOPosix", package: "swift-nio")
            ],
            path: "Tests/HostTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "SandglassHost", "SandglassTesting", "SandglassReport", "SandglassDaemon", "sandglass", "SandglassEmbedded", "WidgetKit",
                "SwiftUI", "CoreLocation", "Intents", "os", "PropertyListSupport"
            ],
            path: "Tests/EndToEndTests", swiftSettings: swiftSettings)
    ],
    swiftLanguageModes: [.v6]
)
