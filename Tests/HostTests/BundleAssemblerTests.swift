import Foundation
import SandglassHost
import Testing

extension BundleTests {
    /// `sandglass bundle`: assembling a bundle from an executable and Info.plist files.
    @Suite("Bundles: assembler")
    struct Assembler {
        /// The error assembling throws, or `nil` when it succeeds.
        private static func assembleError(executable: String, extensionInfo: String, appInfo: String?, output: String) -> BundleError? {
            do {
                _ = try BundleAssembler.assemble(executable: executable, extensionInfo: extensionInfo, appInfo: appInfo, output: output)
                return nil
            } catch let error as BundleError {
                return error
            } catch {
                return BundleError(file: "?", message: "unexpected error type: \(error)")
            }
        }

        /// A fixture with the inputs of an assembly: `build/LeaderboardWidget`, `src/Widget-Info.plist`, `src/App-Info.plist`.
        private func inputs(widget edit: (inout [String: Any]) -> Void = { _ in }) throws -> BundleFixture {
            let fixture = try BundleFixture()
            do {
                var widget = fixture.widgetInfo
                edit(&widget)
                try fixture.writePlist(widget, to: "src/Widget-Info.plist")
                var app = fixture.appInfo
                app["NSLocationWhenInUseUsageDescription"] = "Nearby scores."
                try fixture.writePlist(app, to: "src/App-Info.plist")
                try fixture.installExecutable(at: "build/LeaderboardWidget", mode: 0o700)
                return fixture
            } catch {
                fixture.remove()
                throw error
            }
        }

        private func assemble(_ f: BundleFixture, appInfo: Bool = true, output: String = "out/Leaderboard.app") throws -> AppBundle {
            try BundleAssembler.assemble(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                appInfo: appInfo ? f.path("src/App-Info.plist") : nil, output: f.path(output))
        }

        private func assembleError(_ f: BundleFixture, appInfo: Bool = true, output: String = "out/Leaderboard.app") -> BundleError? {
            Self.assembleError(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                appInfo: appInfo ? f.path("src/App-Info.plist") : nil, output: f.path(output))
        }

        private func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue & 0o7777
        }

        @Test("--entitlements: copied into the .appex as <executable>.entitlements, its app groups read; a malformed one refused")
        func entitlements() throws {
            let f = try inputs()
            defer { f.remove() }
            try f.writePlist(["com.apple.security.application-groups": ["group.com.example.scores"]], to: "src/Widget.entitlements")
            let app = try BundleAssembler.assemble(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                appInfo: f.path("src/App-Info.plist"), entitlements: f.path("src/Widget.entitlements"),
                output: f.path("out/Leaderboard.app"))
            #expect(app.extensions.first?.appGroups == ["group.com.example.scores"])
            #expect(
                FileManager.default.fileExists(
                    atPath: f.path("out/Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget.entitlements")))
            try f.writePlist(["com.apple.security.application-groups": "group.com.example.scores"], to: "src/Widget.entitlements")
            do {
                _ = try BundleAssembler.assemble(
                    executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                    appInfo: f.path("src/App-Info.plist"), entitlements: f.path("src/Widget.entitlements"),
                    output: f.path("out/Leaderboard.app"))
                Issue.record("a malformed entitlements file was assembled")
            } catch let error as BundleError {
                #expect(error.key == "com.apple.security.application-groups")
                #expect(error.file.hasSuffix("LeaderboardWidget.appex/LeaderboardWidget.entitlements"))
            }
        }

        @Test("round trip: the layout, byte-identical copies, mode 0755, and the loaded bundle")
        func roundTrip() throws {
            let f = try inputs { $0["NSWidgetWantsLocation"] = true }
            defer { f.remove() }
            let app = try assemble(f)

            let output = f.path("out/Leaderboard.app")
            let appex = output + "/PlugIns/LeaderboardWidget.appex"
            #expect(app.path == output)
            #expect(app.bundleIdentifier == f.appIdentifier)
            #expect(app.locationPurposeStrings == ["NSLocationWhenInUseUsageDescription": "Nearby scores."])
            let widget = try #require(app.extensions.first)
            #expect(app.extensions.count == 1)
            #expect(widget.path == appex)
            #expect(widget.bundleIdentifier == f.widgetIdentifier)
            #expect(widget.executablePath == appex + "/LeaderboardWidget")
            #expect(widget.wantsLocation)

            let contents = { (path: String) in FileManager.default.contents(atPath: path) }
            #expect(contents(output + "/Info.plist") == contents(f.path("src/App-Info.plist")))
            #expect(contents(appex + "/Info.plist") == contents(f.path("src/Widget-Info.plist")))
            #expect(contents(appex + "/LeaderboardWidget") == contents("/bin/true"))
            #expect(try mode(appex + "/LeaderboardWidget") == 0o755)
            #expect(FileManager.default.fileExists(atPath: output + "/" + BundleAssembler.markerName))
            // Nothing else is left next to the output.
            #expect(try FileManager.default.contentsOfDirectory(atPath: f.path("out")) == ["Leaderboard.app"])
            #expect(try BundleLoader.load(output) == app)
        }

        @Test("without --app-info the app's Info.plist is generated from the extension's identifier and the output name")
        func generatedAppInfo() throws {
            let f = try inputs()
            defer { f.remove() }
            let app = try assemble(f, appInfo: false, output: "Scores.app")
            #expect(app.bundleIdentifier == "com.example.Leaderboard")
            #expect(app.displayName == "Scores")
            #expect(app.locationPurposeStrings.isEmpty)
            let data = try #require(FileManager.default.contents(atPath: f.path("Scores.app/Info.plist")))
            #expect(String(decoding: data, as: UTF8.self).contains("<key>CFBundleName</key>"), "generated as XML")
        }

        @Test("without --app-info an extension that wants location is refused, pointing at --app-info")
        func generatedAppInfoWithoutPurpose() throws {
            let f = try inputs { $0["NSWidgetWantsLocation"] = true }
            defer { f.remove() }
            let error = try #require(assembleError(f, appInfo: false))
            #expect(error.file == "Leaderboard.app/Info.plist")
            #expect(error.key == "NSLocationWhenInUseUsageDescription")
            #expect(error.message.contains("--app-info"))
            #expect(!FileManager.default.fileExists(atPath: f.path("out/Leaderboard.app")))
        }

        @Test("an extension identifier with one component cannot name the app")
        func underivableIdentifier() throws {
            let f = try inputs { $0["CFBundleIdentifier"] = "Widget" }
            defer { f.remove() }
            let error = try #require(assembleError(f, appInfo: false))
            #expect(error.file == f.path("src/Widget-Info.plist"))
            #expect(error.key == "CFBundleIdentifier")
        }

        @Test("an invalid extension Info.plist is refused by the loader, and nothing is written")
        func invalidResult() throws {
            let f = try inputs { $0.set("com.apple.share-services", at: "NSExtensionPointIdentifier", in: "NSExtension") }
            defer { f.remove() }
            let error = try #require(assembleError(f))
            #expect(error.file == "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist")
            #expect(error.key == "NSExtension.NSExtensionPointIdentifier")
            #expect(try FileManager.default.contentsOfDirectory(atPath: f.path("out")).isEmpty, "no output, no staging left")
        }

        @Test("inputs that are missing or malformed are named as given")
        func badInputs() throws {
            let f = try inputs()
            defer { f.remove() }
            let output = f.path("out/Leaderboard.app")
            let missingExecutable = Self.assembleError(
                executable: f.path("build/Nope"), extensionInfo: f.path("src/Widget-Info.plist"), appInfo: nil, output: output)
            #expect(missingExecutable?.file == f.path("build/Nope"))

            let missingInfo = Self.assembleError(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Nope.plist"), appInfo: nil, output: output)
            #expect(missingInfo?.file == f.path("src/Nope.plist"))

            try f.write("not a plist <", to: "src/Broken.plist")
            let brokenApp = Self.assembleError(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                appInfo: f.path("src/Broken.plist"), output: output)
            #expect(brokenApp?.file == f.path("src/Broken.plist"))
            #expect(brokenApp?.message.hasPrefix("is not a property list") == true)

            let directoryExecutable = Self.assembleError(
                executable: f.path("build"), extensionInfo: f.path("src/Widget-Info.plist"), appInfo: nil, output: output)
            #expect(directoryExecutable?.file == f.path("build"))

            let notApp = Self.assembleError(
                executable: f.path("build/LeaderboardWidget"), extensionInfo: f.path("src/Widget-Info.plist"),
                appInfo: nil, output: f.path("out/Leaderboard"))
            #expect(notApp?.file == f.path("out/Leaderboard"))
            #expect(notApp?.message.contains("must end in .app") == true)

            let noExecutableKey = try inputs { $0["CFBundleExecutable"] = nil }
            defer { noExecutableKey.remove() }
            let error = try #require(assembleError(noExecutableKey))
            #expect(error.file == noExecutableKey.path("src/Widget-Info.plist"))
            #expect(error.key == "CFBundleExecutable")
        }

        @Test("an assembled output is replaced by a later assembly; an empty directory is used")
        func replacesItsOwnOutput() throws {
            let f = try inputs()
            defer { f.remove() }
            _ = try assemble(f)
            try f.write("stale", to: "out/Leaderboard.app/PlugIns/Stale.appex/junk")
            let second = try assemble(f)
            #expect(second.extensions.count == 1)
            #expect(!FileManager.default.fileExists(atPath: f.path("out/Leaderboard.app/PlugIns/Stale.appex")))

            try FileManager.default.createDirectory(atPath: f.path("empty/Leaderboard.app"), withIntermediateDirectories: true)
            #expect(try assemble(f, output: "empty/Leaderboard.app").extensions.count == 1)
        }

        @Test("an output not made by the assembler is never overwritten")
        func refusesForeignOutput() throws {
            let f = try inputs()
            defer { f.remove() }
            try f.write("mine", to: "out/Leaderboard.app/Notes.txt")
            let error = try #require(assembleError(f))
            #expect(error.file == f.path("out/Leaderboard.app"))
            #expect(error.message.contains("was not made by sandglass bundle"))
            #expect(FileManager.default.contents(atPath: f.path("out/Leaderboard.app/Notes.txt")) == Data("mine".utf8))

            try f.write("a file", to: "file/Leaderboard.app")
            let fileError = try #require(assembleError(f, output: "file/Leaderboard.app"))
            #expect(fileError.file == f.path("file/Leaderboard.app"))
            #expect(fileError.message.contains("is not a directory"))
        }

        @Test("a failed assembly leaves the previous bundle in place")
        func failureKeepsPrevious() throws {
            let f = try inputs()
            defer { f.remove() }
            let first = try assemble(f)
            var broken = f.widgetInfo
            broken["SandglassLimits"] = ["Bogus": 1]
            try f.writePlist(broken, to: "src/Widget-Info.plist")
            let error = try #require(assembleError(f))
            #expect(error.key == "SandglassLimits.Bogus")
            #expect(try BundleLoader.load(f.path("out/Leaderboard.app")) == first)
            #expect(try FileManager.default.contentsOfDirectory(atPath: f.path("out")) == ["Leaderboard.app"])
        }
    }
}
