import Foundation
import PropertyListSupport
import SandglassHost
import Testing

extension BundleTests {
    /// Every malformed bundle is refused with an error naming the file and the key.
    @Suite("Bundles: refusals")
    struct Refusals {
        /// Writes the standard bundle with the given edits and returns the load error.
        private func refusal(
            then change: (BundleFixture) throws -> Void = { _ in },
            app: (inout [String: Any]) -> Void = { _ in },
            widget: (inout [String: Any]) -> Void = { _ in }
        ) throws -> BundleError {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.writeStandardBundle(app: app, widget: widget)
            try change(fixture)
            return try #require(fixture.loadError())
        }

        private let appInfo = "Leaderboard.app/Info.plist"
        private let widgetInfo = "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist"

        // MARK: The app directory

        @Test("the standard bundle itself loads")
        func standardLoads() throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.writeStandardBundle()
            #expect(fixture.loadError() == nil)
        }

        @Test("a path that does not exist")
        func missingPath() throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            let error = try #require(fixture.loadError(fixture.appPath))
            #expect(error.file == fixture.appPath)
            #expect(error.key == nil)
            #expect(error.message.contains("does not exist"))
        }

        @Test("a path that is a file, not a directory")
        func pathIsAFile() throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.write("not a bundle", to: "Leaderboard.app")
            let error = try #require(fixture.loadError())
            #expect(error.file == fixture.appPath)
            #expect(error.key == nil)
            #expect(error.message.contains("is not a directory"))
        }

        @Test("a directory whose name does not end in .app")
        func notDotApp() throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.writeStandardBundle()
            try FileManager.default.moveItem(atPath: fixture.appPath, toPath: fixture.path("Leaderboard"))
            let error = try #require(fixture.loadError(fixture.path("Leaderboard")))
            #expect(error.file == fixture.path("Leaderboard"))
            #expect(error.description.contains("must end in .app"))
            #expect(fixture.loadError(fixture.path(".app")) != nil)
        }

        // MARK: The app's Info.plist

        @Test("the app's Info.plist is missing")
        func appInfoMissing() throws {
            let error = try refusal { try FileManager.default.removeItem(atPath: $0.path("Leaderboard.app/Info.plist")) }
            #expect(error.file == appInfo)
            #expect(error.key == nil)
            #expect(error.description.hasPrefix("Leaderboard.app/Info.plist: is missing"))
        }

        @Test("the app's Info.plist is not a property list; the parser's complaint is included")
        func appInfoMalformed() throws {
            let error = try refusal {
                try $0.write(
                    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>CFBundleIdentifier</key>\n</dict>\n</plist>\n",
                    to: "Leaderboard.app/Info.plist")
            }
            #expect(error.file == appInfo)
            #expect(error.key == nil)
            #expect(error.message.hasPrefix("is not a property list: "))
            #expect(error.message.contains("line"), "the parser's message names the line: \(error)")
        }

        @Test("the app's Info.plist is an array, not a dictionary")
        func appInfoNotADictionary() throws {
            let error = try refusal {
                try $0.write(
                    PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .xml, options: 0), to: "Leaderboard.app/Info.plist"
                )
            }
            #expect(error.file == appInfo)
            #expect(error.key == nil)
            #expect(error.message.contains("is an array at the top level"))
            #expect(error.message.contains("must be a dictionary"))
        }

        @Test(
            "the app's CFBundleIdentifier: missing, empty, not a string, invalid characters",
            arguments: [
                (.absent, "is missing"),
                (.string(""), "is empty"),
                (.string("  "), "is empty"),
                (.integer(42), "is an integer (42); it must be a string"),
                (.bool(true), "is a Boolean (true); it must be a string"),
                (.string("com.example/Leaderboard"), "contains \"/\""),
                (.string("com.example.Leader board"), "contains a space"),
                (.string("com.example..Leaderboard"), "has an empty component")
            ] as [(TestPlistValue, String)])
        func appIdentifier(value: TestPlistValue, problem: String) throws {
            let error = try refusal(app: { $0["CFBundleIdentifier"] = value.value })
            #expect(error.file == appInfo)
            #expect(error.key == "CFBundleIdentifier")
            #expect(error.message.hasPrefix("CFBundleIdentifier "), "\(error)")
            #expect(error.message.contains(problem), "\(error)")
        }

        @Test("a location purpose string that is not a string")
        func purposeNotAString() throws {
            let error = try refusal(app: { $0["NSLocationWhenInUseUsageDescription"] = 1 })
            #expect(error.file == appInfo)
            #expect(error.key == "NSLocationWhenInUseUsageDescription")
        }

        // MARK: PlugIns

        @Test("no PlugIns directory")
        func noPlugIns() throws {
            let error = try refusal { try FileManager.default.removeItem(atPath: $0.path("Leaderboard.app/PlugIns")) }
            #expect(error.file == "Leaderboard.app/PlugIns")
            #expect(error.key == nil)
            #expect(error.message.contains("no extension"))
        }

        @Test("a PlugIns directory with no .appex")
        func noAppex() throws {
            let error = try refusal {
                try FileManager.default.removeItem(atPath: $0.path("Leaderboard.app/PlugIns/LeaderboardWidget.appex"))
                try $0.write("", to: "Leaderboard.app/PlugIns/notes.txt")
            }
            #expect(error.file == "Leaderboard.app/PlugIns")
            #expect(error.message.contains("holds no .appex"))
        }

        @Test("an .appex that is a file")
        func appexIsAFile() throws {
            let error = try refusal { try $0.write("", to: "Leaderboard.app/PlugIns/Other.appex") }
            #expect(error.file == "Leaderboard.app/PlugIns/Other.appex")
            #expect(error.message.contains("is not a directory"))
        }

        // MARK: The extension's Info.plist

        @Test("the extension's Info.plist is missing")
        func widgetInfoMissing() throws {
            let error = try refusal { try FileManager.default.removeItem(atPath: $0.path(self.widgetInfo)) }
            #expect(error.file == widgetInfo)
            #expect(error.key == nil)
            #expect(error.message.contains("is missing"))
        }

        @Test("the extension's Info.plist is not a property list")
        func widgetInfoMalformed() throws {
            let error = try refusal { try $0.write("{ this is = not; a plist", to: self.widgetInfo) }
            #expect(error.file == widgetInfo)
            #expect(error.key == nil)
            #expect(error.message.hasPrefix("is not a property list: "))
        }

        /// 28 arrays, each two references to the next: 150 bytes, 2^29 values as Foundation would build them.
        @Test("the extension's Info.plist is a bomb of shared references: refused at once, before Foundation expands it")
        func widgetInfoReferenceBomb() throws {
            let bomb = BinaryPlist.sharedReferenceBomb(levels: Self.bombLevels, key: "CFBundleIdentifier").data
            #expect(bomb.count < 200)
            var error: BundleError?
            let elapsed = try ContinuousClock().measure { error = try refusal { try $0.write(bomb, to: self.widgetInfo) } }
            let refused = try #require(error)
            #expect(refused.file == widgetInfo)
            #expect(refused.key == nil)
            #expect(
                refused.message.hasPrefix("is a binary property list whose references expand to more than 1000000 values"), "\(refused)")
            #expect(elapsed < .seconds(2), "\(elapsed)")
        }

        /// The bomb's depth: Foundation would build 2^29 values from it (a 20-level one took 130 MB).
        static let bombLevels = 28

        @Test("the extension's CFBundleIdentifier is missing")
        func widgetIdentifierMissing() throws {
            let error = try refusal(widget: { $0["CFBundleIdentifier"] = nil })
            #expect(error.file == widgetInfo)
            #expect(error.key == "CFBundleIdentifier")
            #expect(error.message.contains("com.example.Leaderboard.LeaderboardWidget"), "an example identifier: \(error)")
        }

        @Test(
            "the extension's CFBundleIdentifier does not extend the app's",
            arguments: [
                "com.other.Widget", "com.example.Leaderboard", "com.example.LeaderboardWidget", "com.example.Leaderboard."
            ])
        func widgetIdentifierNotPrefixed(identifier: String) throws {
            let error = try refusal(widget: { $0["CFBundleIdentifier"] = identifier })
            #expect(error.file == widgetInfo)
            #expect(error.key == "CFBundleIdentifier")
            if !identifier.hasSuffix(".") {
                #expect(error.message.contains("must start with its app's identifier (com.example.Leaderboard) followed by a period"))
            }
        }

        @Test(
            "the extension's CFBundleExecutable is missing, not a string, or a path",
            arguments: [
                (.absent, "is missing"),
                (.integer(7), "is an integer (7)"),
                (.string("../LeaderboardWidget"), "without a slash"),
                (.string(".."), "without a slash")
            ] as [(TestPlistValue, String)])
        func executableKey(value: TestPlistValue, problem: String) throws {
            let error = try refusal(widget: { $0["CFBundleExecutable"] = value.value })
            #expect(error.file == widgetInfo)
            #expect(error.key == "CFBundleExecutable")
            #expect(error.message.contains(problem), "\(error)")
        }

        @Test("the executable does not exist; the error names its path")
        func executableMissing() throws {
            let error = try refusal(widget: { $0["CFBundleExecutable"] = "Widget" })
            #expect(error.file == widgetInfo)
            #expect(error.key == "CFBundleExecutable")
            #expect(error.message.contains("Leaderboard.app/PlugIns/LeaderboardWidget.appex/Widget does not exist"), "\(error)")
        }

        @Test("the executable has no execute bit")
        func executableNotExecutable() throws {
            let error = try refusal {
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o644],
                    ofItemAtPath: $0.path("Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget"))
            }
            #expect(error.file == widgetInfo)
            #expect(error.key == "CFBundleExecutable")
            #expect(
                error.message.contains("Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget is not executable (mode 644)"),
                "\(error)")
        }

        @Test("the executable is a directory")
        func executableIsADirectory() throws {
            let error = try refusal {
                let executable = $0.path("Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget")
                try FileManager.default.removeItem(atPath: executable)
                try FileManager.default.createDirectory(atPath: executable, withIntermediateDirectories: false)
            }
            #expect(error.key == "CFBundleExecutable")
            #expect(error.message.contains("is a directory"))
        }

        @Test("NSExtension is missing")
        func nsExtensionMissing() throws {
            let error = try refusal(widget: { $0["NSExtension"] = nil })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension")
            #expect(error.message.contains("com.apple.widgetkit-extension"))
        }

        @Test("NSExtension is not a dictionary")
        func nsExtensionNotADictionary() throws {
            let error = try refusal(widget: { $0["NSExtension"] = "com.apple.widgetkit-extension" })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension")
            #expect(error.message.contains("must be a dictionary"))
        }

        @Test("NSExtensionPointIdentifier is missing")
        func pointMissing() throws {
            let error = try refusal(widget: { $0["NSExtension"] = ["NSExtensionAttributes": [String: Any]()] })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension.NSExtensionPointIdentifier")
            #expect(error.message.hasPrefix("NSExtension.NSExtensionPointIdentifier is missing"))
        }

        @Test("NSExtensionPointIdentifier names another extension point")
        func pointWrong() throws {
            let error = try refusal(widget: { $0.set("com.apple.share-services", at: "NSExtensionPointIdentifier", in: "NSExtension") })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension.NSExtensionPointIdentifier")
            #expect(
                error.description == """
                    Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist: NSExtension.NSExtensionPointIdentifier is \
                    "com.apple.share-services"; a widget extension needs com.apple.widgetkit-extension (WidgetKit) or \
                    com.apple.widget-extension (Today)
                    """)
        }

        @Test("a Today extension without NSExtensionPrincipalClass")
        func todayWithoutPrincipalClass() throws {
            let error = try refusal(widget: { $0.set("com.apple.widget-extension", at: "NSExtensionPointIdentifier", in: "NSExtension") })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension.NSExtensionPrincipalClass")
            #expect(error.message.contains("LeaderboardWidget.TodayViewController"))
        }

        @Test(
            "a Today principal class not in Module.ClassName form",
            arguments: [
                "TodayViewController", "A.B.C", ".TodayViewController", "Module.", "1Module.Class", "My-Module.Class",
                "$(PRODUCT_MODULE_NAME).TodayViewController"
            ])
        func todayPrincipalClassForm(name: String) throws {
            let error = try refusal(widget: {
                $0.set("com.apple.widget-extension", at: "NSExtensionPointIdentifier", in: "NSExtension")
                $0.set(name, at: "NSExtensionPrincipalClass", in: "NSExtension")
            })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSExtension.NSExtensionPrincipalClass")
            #expect(error.message.contains("must be Module.ClassName"))
            #expect(error.message.contains("Xcode") == name.contains("$("))
        }

        @Test("a WidgetKit extension's principal class is ignored")
        func widgetKitPrincipalClassIgnored() throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.writeStandardBundle(widget: { $0.set("Whatever", at: "NSExtensionPrincipalClass", in: "NSExtension") })
            #expect(try BundleLoader.load(fixture.appPath).extensions.first?.principalClass == nil)
        }

        @Test(
            "NSWidgetWantsLocation is not a Boolean",
            arguments: [
                .integer(1), .integer(0), .string("YES"), .string("true"), .real(1)
            ] as [TestPlistValue])
        func wantsLocationNotABool(value: TestPlistValue) throws {
            let error = try refusal(
                app: { $0["NSLocationWhenInUseUsageDescription"] = "Nearby scores." },
                widget: { $0["NSWidgetWantsLocation"] = value.value })
            #expect(error.file == widgetInfo)
            #expect(error.key == "NSWidgetWantsLocation")
            #expect(error.message.contains("must be a Boolean"))
        }

        @Test("NSWidgetWantsLocation without the app's purpose string names the app's Info.plist and the key")
        func wantsLocationWithoutPurpose() throws {
            let error = try refusal(widget: { $0["NSWidgetWantsLocation"] = true })
            #expect(error.file == appInfo)
            #expect(error.key == "NSLocationWhenInUseUsageDescription")
            #expect(error.message.contains("is missing, and so is NSLocationAlwaysAndWhenInUseUsageDescription, but"))
            #expect(error.message.contains(widgetInfo))
            #expect(error.message.contains("NSWidgetWantsLocation"))

            let empty = try refusal(app: { $0["NSLocationWhenInUseUsageDescription"] = "" }, widget: { $0["NSWidgetWantsLocation"] = true })
            #expect(empty.file == appInfo)
            #expect(empty.key == "NSLocationWhenInUseUsageDescription")
            #expect(empty.message.hasPrefix("NSLocationWhenInUseUsageDescription is empty"))

            let another = try refusal(
                app: { $0["NSLocationAlwaysUsageDescription"] = "Old key." }, widget: { $0["NSWidgetWantsLocation"] = true })
            #expect(another.key == "NSLocationWhenInUseUsageDescription")
        }

        @Test(
            "NSWidgetWantsLocation with either purpose string, or set to false, loads",
            arguments: [
                ("NSLocationWhenInUseUsageDescription", true),
                ("NSLocationAlwaysAndWhenInUseUsageDescription", true),
                ("NSCameraUsageDescription", false)
            ])
        func wantsLocationAccepted(key: String, wants: Bool) throws {
            let fixture = try BundleFixture()
            defer { fixture.remove() }
            try fixture.writeStandardBundle(app: { $0[key] = "Nearby scores." }, widget: { $0["NSWidgetWantsLocation"] = wants })
            let app = try BundleLoader.load(fixture.appPath)
            #expect(app.extensions.first?.wantsLocation == wants)
        }

        // MARK: SandglassLimits

        @Test("SandglassLimits is not a dictionary")
        func limitsNotADictionary() throws {
            let error = try refusal(widget: { $0["SandglassLimits"] = ["LaunchSeconds"] })
            #expect(error.file == widgetInfo)
            #expect(error.key == "SandglassLimits")
            #expect(error.message.contains("is an array"))
            #expect(error.message.contains("must be a dictionary"))
        }

        @Test("an unknown key in SandglassLimits is named, with the known keys")
        func limitsUnknownKey() throws {
            let error = try refusal(widget: { $0["SandglassLimits"] = ["LaunchSeconds": 1, "MemoryMB": 20] as [String: Any] })
            #expect(error.file == widgetInfo)
            #expect(error.key == "SandglassLimits.MemoryMB")
            #expect(
                error.description == """
                    Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist: SandglassLimits.MemoryMB is not a known limit; \
                    the known keys are LaunchSeconds, PlaceholderSeconds, SnapshotSeconds, TimelineSeconds, \
                    BackgroundEventsSeconds, PerformUpdateSeconds, IdleSeconds, MemoryMiB, ReloadsPerDay, ContainerMiB, ContainerFiles
                    """)
        }

        @Test(
            "a time limit that is not a positive number of seconds",
            arguments: [
                ("LaunchSeconds", .integer(0)), ("PlaceholderSeconds", .integer(-1)), ("SnapshotSeconds", .real(-0.5)),
                ("TimelineSeconds", .real(0)), ("BackgroundEventsSeconds", .string("30")), ("PerformUpdateSeconds", .bool(true)),
                ("IdleSeconds", .integer(2_000_000_000)), ("IdleSeconds", .real(.infinity)), ("TimelineSeconds", .strings(["1"]))
            ] as [(String, TestPlistValue)])
        func limitsBadSeconds(key: String, value: TestPlistValue) throws {
            let error = try refusal(widget: { $0["SandglassLimits"] = [key: value.value!] })
            #expect(error.file == widgetInfo)
            #expect(error.key == "SandglassLimits.\(key)")
            #expect(error.message.contains("must be a positive number of seconds"), "\(error)")
        }

        @Test(
            "a count limit that is not a positive integer",
            arguments: [
                ("MemoryMiB", .integer(0)), ("MemoryMiB", .integer(-16)), ("MemoryMiB", .real(16.5)), ("MemoryMiB", .string("16")),
                ("MemoryMiB", .integer(.max)), ("ReloadsPerDay", .integer(0)), ("ReloadsPerDay", .real(2)), ("ReloadsPerDay", .bool(false))
            ] as [(String, TestPlistValue)])
        func limitsBadCounts(key: String, value: TestPlistValue) throws {
            let error = try refusal(widget: { $0["SandglassLimits"] = [key: value.value!] })
            #expect(error.file == widgetInfo)
            #expect(error.key == "SandglassLimits.\(key)")
            #expect(error.message.contains("must be a positive <integer>"), "\(error)")
        }

        // MARK: Across extensions

        @Test("two extensions with the same bundle identifier")
        func duplicateIdentifiers() throws {
            let error = try refusal { fixture in
                try fixture.writePlist(fixture.widgetInfo, to: "Leaderboard.app/PlugIns/Second.appex/Info.plist")
                try fixture.installExecutable(at: "Leaderboard.app/PlugIns/Second.appex/LeaderboardWidget")
            }
            // LeaderboardWidget.appex sorts before Second.appex, so the second one is named.
            #expect(error.file == "Leaderboard.app/PlugIns/Second.appex/Info.plist")
            #expect(error.key == "CFBundleIdentifier")
            #expect(error.message.contains("the same as in \(widgetInfo)"))
        }
    }
}
