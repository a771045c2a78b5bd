// swift-tools-version: 6.1
import PackageDescription

/// Example widget extensions for Sandglass, each an executable linking the SDK's `WidgetKit`.
///
/// Build them as the Makefile does:
///
///     swift build -c release --static-swift-stdlib
///
/// then place each executable in its bundle from `Bundles/`:
/// `<App>.app/PlugIns/<Executable>.appex/<Executable>`.
///
/// The examples written the way Apple developers write widgets build in the Swift 5 language
/// mode, as such code usually does; the misbehaving widgets build in Swift 6 mode.
let appleStyle: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "SandglassExamples",
    dependencies: [
        .package(name: "sandglass", path: "..")
    ],
    targets: [
        /// A widget bundle with two widgets: `Leaderboard` (`.atEnd`) and `NextMatch` (`.after`).
        .executableTarget(
            name: "LeaderboardWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "LeaderboardWidget",
            swiftSettings: appleStyle
        ),
        /// Apple's widget template and Emoji Rangers sample, SwiftUI views included.
        .executableTarget(
            name: "AppleStyleWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "AppleStyleWidget",
            swiftSettings: appleStyle
        ),
        /// `getTimeline` never calls its completion and blocks forever.
        .executableTarget(
            name: "HangingWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "HangingWidget"
        ),
        /// A background download started in `getTimeline`, delivered after a relaunch by session
        /// identifier (`onBackgroundURLSessionEvents`), moved into the cache, then a reload.
        .executableTarget(
            name: "DownloaderWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "DownloaderWidget",
            swiftSettings: appleStyle
        ),
        /// An inline `URLSession.shared.data(from:)` inside `getTimeline`.
        .executableTarget(
            name: "InlineFetchWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "InlineFetchWidget",
            swiftSettings: appleStyle
        ),
        /// `getTimeline` tries to open an internet socket.
        .executableTarget(
            name: "NetworkWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "NetworkWidget"
        ),
        /// `getTimeline` tries to fork.
        .executableTarget(
            name: "ForkingWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "ForkingWidget"
        ),
        /// `getTimeline` touches 64 MiB, 1 MiB at a time; as HeavyView.app, views that decode a
        /// 46 MiB photo or trap.
        .executableTarget(
            name: "MemoryHogWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "MemoryHogWidget"
        ),
        /// `.never`, and one `WidgetCenter.shared.reloadTimelines(ofKind:)` after its first timeline.
        .executableTarget(
            name: "ReloadingWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "ReloadingWidget"
        ),
        /// Ten widget kinds with mixed reload policies; Fleet.app holds five copies (50 widgets).
        .executableTarget(
            name: "FleetWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "FleetWidget"
        ),
        /// The misbehaviour corpus: Misbehaving.app holds ten extensions of this executable, each
        /// doing one thing wrong (fork bomb, busy loop, sleeping forever, never and double
        /// completion, oversized and out-of-order frames, writes outside its container, ptrace,
        /// exec of another binary), chosen by its bundle identifier.
        .executableTarget(
            name: "MisbehavingWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass"), "CMisbehaviour"],
            path: "MisbehavingWidget"
        ),
        .target(name: "CMisbehaviour", path: "CMisbehaviour"),
        /// Rogue.app: extensions that speak the protocol themselves, without the SDK, to flood
        /// the host (logs, reloads, requests), name schemes that reach its own sockets, or never
        /// read an inline download — the attacks the message budgets contain.
        .executableTarget(
            name: "RogueWidget",
            dependencies: [.product(name: "SandglassIPC", package: "sandglass")],
            path: "RogueWidget"
        ),
        /// Not an extension: a static hello-world, the benchmark's floor for a cold start.
        .executableTarget(
            name: "HelloWorld",
            path: "HelloWorld"
        ),
        /// Today extensions: the article's three widgetPerformUpdate patterns and the async form,
        /// one principal class per extension of TodayPatterns.app.
        .executableTarget(
            name: "TodayPatterns",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "TodayPatterns",
            swiftSettings: appleStyle
        ),
        /// Today extensions that block the main thread, never complete, or complete twice.
        .executableTarget(
            name: "TodayPitfalls",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "TodayPitfalls",
            swiftSettings: appleStyle
        ),
        /// A location widget (NSWidgetWantsLocation): requestLocation when authorized for widgets.
        .executableTarget(
            name: "NearbyWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "NearbyWidget",
            swiftSettings: appleStyle
        ),
        /// A widget without NSWidgetWantsLocation that asks for location anyway (Commute.app).
        .executableTarget(
            name: "TimetableWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "TimetableWidget",
            swiftSettings: appleStyle
        ),
        /// Relay.app: an app group shared with the app (UserDefaults(suiteName:), containerURL),
        /// a configurable widget (IntentConfiguration, a custom INIntent), Logger and os_log.
        .executableTarget(
            name: "RelayWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "RelayWidget",
            swiftSettings: appleStyle
        ),
        /// What an extension reaches of the app group it declares: Relay.app's second extension
        /// (another uid sharing the group), and Intruder.app's (another app naming Relay's group).
        .executableTarget(
            name: "GroupProbeWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "GroupProbeWidget",
            swiftSettings: appleStyle
        ),
        /// `getTimeline` writes garbage to the IPC descriptor.
        .executableTarget(
            name: "GarbageWidget",
            dependencies: [.product(name: "WidgetKit", package: "sandglass")],
            path: "GarbageWidget"
        )
    ]
)
