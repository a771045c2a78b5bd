/// A containing app as ``BundleLoader`` found it: its Info.plist and its widget extensions.
///
/// ```
/// Leaderboard.app/
///   Info.plist
///   PlugIns/LeaderboardWidget.appex/…
/// ```
public struct AppBundle: Sendable, Hashable {
    /// The `.app` directory, absolute and without a trailing slash.
    public var path: String
    /// `path/Info.plist`.
    public var infoPlistPath: String
    /// The app's `CFBundleIdentifier`; every extension's identifier extends it.
    public var bundleIdentifier: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the directory name without `.app`.
    public var displayName: String
    /// The `NSLocation…UsageDescription` purpose strings the app declares, by key
    /// (`NSLocationWhenInUseUsageDescription`, `NSLocationAlwaysAndWhenInUseUsageDescription`, …).
    public var locationPurposeStrings: [String: String]
    /// The extensions in `PlugIns/`, in the order of their directory names.
    public var extensions: [ExtensionBundle]
    /// The app groups the app's own entitlements declare (its `*.entitlements` file).
    public var ownAppGroups: [String]

    /// A bundle with the given fields; ``BundleLoader/load(_:)`` is the usual way to get one.
    public init(
        path: String,
        infoPlistPath: String,
        bundleIdentifier: String,
        displayName: String,
        locationPurposeStrings: [String: String],
        extensions: [ExtensionBundle],
        ownAppGroups: [String] = []
    ) {
        self.path = path
        self.infoPlistPath = infoPlistPath
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.locationPurposeStrings = locationPurposeStrings
        self.extensions = extensions
        self.ownAppGroups = ownAppGroups
    }

    /// The app groups of the app: those its entitlements declare and those of its extensions
    /// (the containing app is the host's to play; it shares every group its extensions name).
    public var appGroups: [String] {
        var groups = ownAppGroups
        for group in extensions.flatMap(\.appGroups) where !groups.contains(group) { groups.append(group) }
        return groups
    }

    /// The extension whose `CFBundleIdentifier` is `bundleIdentifier`, if any.
    public func extensionBundle(withIdentifier bundleIdentifier: String) -> ExtensionBundle? {
        extensions.first { $0.bundleIdentifier == bundleIdentifier }
    }
}
