import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// Well-formed bundles load with every field.
@Suite("Bundles: loading")
struct BundleTests {
    static let appInfoXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key>
            <string>com.example.Leaderboard</string>
            <key>CFBundleDisplayName</key>
            <string>Leaderboard ⚽️</string>
            <key>CFBundleName</key>
            <string>Leaderboard</string>
            <key>NSLocationWhenInUseUsageDescription</key>
            <string>Shows the scores of clubs near you.</string>
            <key>NSLocationAlwaysAndWhenInUseUsageDescription</key>
            <string>Keeps nearby scores fresh.</string>
            <key>NSCameraUsageDescription</key>
            <string>Not a location key.</string>
        </dict>
        </plist>
        """

    static let widgetInfoXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key>
            <string>com.example.Leaderboard.Widget</string>
            <key>CFBundleExecutable</key>
            <string>LeaderboardWidget</string>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionPointIdentifier</key>
                <string>com.apple.widgetkit-extension</string>
            </dict>
            <key>NSWidgetWantsLocation</key>
            <true/>
            <key>SandglassLimits</key>
            <dict>
                <key>LaunchSeconds</key>
                <real>0.25</real>
                <key>PlaceholderSeconds</key>
                <integer>2</integer>
                <key>SnapshotSeconds</key>
                <real>7.5</real>
                <key>TimelineSeconds</key>
                <integer>45</integer>
                <key>BackgroundEventsSeconds</key>
                <integer>20</integer>
                <key>PerformUpdateSeconds</key>
                <integer>3</integer>
                <key>IdleSeconds</key>
                <real>1.5</real>
                <key>MemoryMiB</key>
                <integer>48</integer>
                <key>ReloadsPerDay</key>
                <integer>72</integer>
            </dict>
        </dict>
        </plist>
        """

    static let todayInfoXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key>
            <string>com.example.Leaderboard.Today</string>
            <key>CFBundleExecutable</key>
            <string>LeaderboardToday</string>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionPointIdentifier</key>
                <string>com.apple.widget-extension</string>
                <key>NSExtensionPrincipalClass</key>
                <string>LeaderboardToday.TodayViewController</string>
            </dict>
            <key>SandglassLimits</key>
            <dict>
                <key>PerformUpdateSeconds</key>
                <integer>4</integer>
            </dict>
        </dict>
        </plist>
        """

    @Test("a WidgetKit extension loads with every field and its SandglassLimits")
    func widgetBundle() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.write(Self.appInfoXML, to: "Leaderboard.app/Info.plist")
        try fixture.write(Self.widgetInfoXML, to: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist")
        try fixture.installExecutable(at: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget")

        let app = try BundleLoader.load(fixture.appPath)
        #expect(app.path == fixture.appPath)
        #expect(app.infoPlistPath == fixture.appPath + "/Info.plist")
        #expect(app.bundleIdentifier == "com.example.Leaderboard")
        #expect(app.displayName == "Leaderboard ⚽️")
        #expect(
            app.locationPurposeStrings == [
                "NSLocationWhenInUseUsageDescription": "Shows the scores of clubs near you.",
                "NSLocationAlwaysAndWhenInUseUsageDescription": "Keeps nearby scores fresh."
            ])
        #expect(app.extensions.count == 1)

        let widget = try #require(app.extensions.first)
        let appex = fixture.appPath + "/PlugIns/LeaderboardWidget.appex"
        #expect(widget.path == appex)
        #expect(widget.infoPlistPath == appex + "/Info.plist")
        #expect(widget.bundleIdentifier == "com.example.Leaderboard.Widget")
        #expect(widget.executableName == "LeaderboardWidget")
        #expect(widget.executablePath == appex + "/LeaderboardWidget")
        #expect(widget.point == .widgetKit)
        #expect(widget.point.identifier == "com.apple.widgetkit-extension")
        #expect(widget.role == .widgetKit)
        #expect(widget.principalClass == nil)
        #expect(widget.wantsLocation)
        #expect(app.extensionBundle(withIdentifier: "com.example.Leaderboard.Widget") == widget)
        #expect(app.extensionBundle(withIdentifier: "com.example.Leaderboard") == nil)

        var expected = Budgets.defaults(for: .widgetKit)
        expected.launch = .milliseconds(250)
        expected.placeholder = .seconds(2)
        expected.snapshot = .milliseconds(7500)
        expected.timeline = .seconds(45)
        expected.backgroundEvents = .seconds(20)
        expected.performUpdate = .seconds(3)
        expected.idle = .milliseconds(1500)
        expected.memoryBytes = 48 << 20
        expected.reloadsPerDay = 72
        #expect(widget.limits.applied(to: .defaults(for: .widgetKit)) == expected)
        #expect(widget.budgets == expected)
        #expect(widget.limits.memoryBytes == 50_331_648)
    }

    @Test("a Today extension loads with its principal class, next to a widget extension")
    func todayBundle() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        try fixture.write(Self.todayInfoXML, to: "Leaderboard.app/PlugIns/LeaderboardToday.appex/Info.plist")
        try fixture.installExecutable(at: "Leaderboard.app/PlugIns/LeaderboardToday.appex/LeaderboardToday")
        // Not an extension: ignored.
        try fixture.write("", to: "Leaderboard.app/PlugIns/README.txt")

        let app = try BundleLoader.load(fixture.appPath)
        #expect(app.displayName == "Leaderboard")
        #expect(app.locationPurposeStrings.isEmpty)
        #expect(app.extensions.map(\.bundleIdentifier) == ["com.example.Leaderboard.Today", "com.example.Leaderboard.Widget"])

        let today = app.extensions[0]
        #expect(today.point == .today)
        #expect(today.point.identifier == "com.apple.widget-extension")
        #expect(today.role == .today)
        #expect(today.principalClass == "LeaderboardToday.TodayViewController")
        #expect(today.executablePath == fixture.appPath + "/PlugIns/LeaderboardToday.appex/LeaderboardToday")
        #expect(!today.wantsLocation)
        var expected = Budgets.defaults(for: .today)
        expected.performUpdate = .seconds(4)
        #expect(today.limits.applied(to: .defaults(for: .today)) == expected)
        #expect(today.budgets.memoryBytes == 16 << 20)

        let widget = app.extensions[1]
        #expect(widget.limits == LimitOverrides())
        #expect(widget.budgets == Budgets.defaults(for: .widgetKit))
        #expect(!widget.wantsLocation)
    }

    @Test("binary property lists are accepted")
    func binaryPlists() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        var widget = fixture.widgetInfo
        widget["NSWidgetWantsLocation"] = false
        widget["SandglassLimits"] = ["MemoryMiB": 24, "TimelineSeconds": 12.5] as [String: Any]
        try fixture.writePlist(fixture.appInfo, to: "Leaderboard.app/Info.plist", format: .binary)
        try fixture.writePlist(widget, to: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist", format: .binary)
        try fixture.installExecutable(at: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget")
        let head = try Data(contentsOf: URL(fileURLWithPath: fixture.path(fixture.appInfoFile))).prefix(6)
        #expect(head == Data("bplist".utf8))

        let app = try BundleLoader.load(fixture.appPath)
        let extensionBundle = try #require(app.extensions.first)
        #expect(app.bundleIdentifier == fixture.appIdentifier)
        #expect(extensionBundle.bundleIdentifier == fixture.widgetIdentifier)
        #expect(!extensionBundle.wantsLocation)
        #expect(extensionBundle.limits.memoryBytes == 24 << 20)
        #expect(extensionBundle.limits.timeline == .milliseconds(12_500))
        #expect(extensionBundle.limits.launch == nil)
    }

    @Test("a relative path, a trailing slash, and a symbolic link to the executable")
    func pathForms() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle { $0["CFBundleName"] = nil }
        let executable = fixture.path("Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget")
        try FileManager.default.removeItem(atPath: executable)
        try fixture.installExecutable(at: "bin/real-widget")
        try FileManager.default.createSymbolicLink(atPath: executable, withDestinationPath: fixture.path("bin/real-widget"))

        let app = try BundleLoader.load(fixture.appPath + "/")
        #expect(app.path == fixture.appPath)
        #expect(app.displayName == "Leaderboard")
        // Relative to the working directory, without changing it (tests run in parallel).
        let depth = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents.count - 1
        let relative = String(repeating: "../", count: depth) + fixture.appPath.dropFirst()
        #expect(try BundleLoader.load(relative).path == fixture.appPath)
    }

    @Test("extension points, roles and descriptions")
    func extensionPoints() {
        #expect(ExtensionPoint(rawValue: "com.apple.widgetkit-extension") == .widgetKit)
        #expect(ExtensionPoint(rawValue: "com.apple.widget-extension") == .today)
        #expect(ExtensionPoint.allCases.map(\.role) == [.widgetKit, .today])
        #expect(ExtensionPoint.widgetKit.description == "com.apple.widgetkit-extension (WidgetKit)")
        #expect(ExtensionPoint.today.description == "com.apple.widget-extension (Today)")
    }
}
