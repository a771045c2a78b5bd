import Foundation
import SandglassHost
import Testing

/// App groups are declared as on Apple's platforms, in a `*.entitlements` property list of the
/// `.appex` (or the `.app`); a malformed one is refused naming the file and the key.
@Suite("Bundles: entitlements and app groups")
struct EntitlementsTests {
    private let widgetEntitlements = "Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget.entitlements"
    private let key = "com.apple.security.application-groups"

    private func load(_ write: (BundleFixture) throws -> Void) throws -> Result<AppBundle, BundleError> {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        try write(fixture)
        do { return .success(try BundleLoader.load(fixture.appPath)) } catch { return .failure(error) }
    }

    private func refusal(_ write: (BundleFixture) throws -> Void) throws -> BundleError {
        guard case .failure(let error) = try load(write) else {
            Issue.record("the bundle loaded")
            throw BundleError(file: "", message: "loaded")
        }
        return error
    }

    @Test("the groups of the extension's and the app's entitlements are read; the app shares its extensions'")
    func declared() throws {
        let app = try load { fixture in
            try fixture.writePlist(
                [key: ["group.com.example.scores", "group.com.example.shared"], "aps-environment": "development"],
                to: widgetEntitlements)
            try fixture.writePlist([key: ["group.com.example.app-only"]], to: "Leaderboard.app/Leaderboard.entitlements")
        }.get()
        #expect(app.extensions[0].appGroups == ["group.com.example.scores", "group.com.example.shared"])
        #expect(app.ownAppGroups == ["group.com.example.app-only"])
        #expect(app.appGroups == ["group.com.example.app-only", "group.com.example.scores", "group.com.example.shared"])
    }

    @Test("no entitlements file, or one without the key: no groups")
    func none() throws {
        #expect(try load { _ in }.get().extensions[0].appGroups.isEmpty)
        #expect(try load { try $0.writePlist(["aps-environment": "production"], to: widgetEntitlements) }.get().appGroups.isEmpty)
    }

    @Test("the key is not an array: refused naming the file and the key")
    func notAnArray() throws {
        let error = try refusal { try $0.writePlist([key: "group.com.example.scores"], to: widgetEntitlements) }
        #expect(error.file == widgetEntitlements)
        #expect(error.key == key)
        #expect(error.message.contains("must be an array"))
    }

    @Test("an item that is not a string, or not a group identifier: refused naming the item")
    func badItems() throws {
        let number = try refusal { try $0.writePlist([key: [42]], to: widgetEntitlements) }
        #expect(number.key == key && number.message.contains("item 0") && number.message.contains("must be a string"))
        let prefix = try refusal { try $0.writePlist([key: ["com.example.scores"]], to: widgetEntitlements) }
        #expect(prefix.message.contains("item 0") && prefix.message.contains("group."))
        let slash = try refusal { try $0.writePlist([key: ["group.ok", "group.../etc"]], to: widgetEntitlements) }
        #expect(slash.message.contains("item 1"))
    }

    @Test("a file that is not a property list, or not a dictionary, or a link: refused naming the file")
    func malformedFile() throws {
        let garbage = try refusal { try $0.write("<plist><dict><key>x", to: widgetEntitlements) }
        #expect(garbage.file == widgetEntitlements && garbage.message.contains("not a property list"))
        let array = try refusal { fixture in
            try fixture.write(
                PropertyListSerialization.data(fromPropertyList: ["group.x"], format: .xml, options: 0), to: widgetEntitlements)
        }
        #expect(array.file == widgetEntitlements && array.message.contains("dictionary"))
        let link = try refusal { fixture in
            try FileManager.default.createSymbolicLink(atPath: fixture.path(widgetEntitlements), withDestinationPath: "/etc/passwd")
        }
        #expect(link.file == widgetEntitlements && link.message.contains("symbolic link"))
    }

    @Test(
        "more than 16 app groups in an app, its extensions' and its own together: refused naming the file and the key — each is a container with a quota of its own and a gid of the host's range"
    )
    func tooMany() throws {
        let seventeen = try refusal { fixture in
            try fixture.writePlist([key: (0..<17).map { "group.com.example.g\($0)" }], to: widgetEntitlements)
        }
        #expect(seventeen.file == widgetEntitlements && seventeen.key == key, "\(seventeen)")
        #expect(seventeen.message.contains("17") && seventeen.message.contains("16"), "\(seventeen.message)")
        // Sixteen in the extension, the same and one more in the app's own.
        let appOwn = try refusal { fixture in
            try fixture.writePlist([key: (0..<16).map { "group.com.example.g\($0)" }], to: widgetEntitlements)
            try fixture.writePlist([key: (0..<17).map { "group.com.example.g\($0)" }], to: "Leaderboard.app/Leaderboard.entitlements")
        }
        #expect(appOwn.file == "Leaderboard.app/Leaderboard.entitlements" && appOwn.key == key, "\(appOwn)")
        // Sixteen, shared: loaded.
        let app = try load { fixture in
            try fixture.writePlist([key: (0..<16).map { "group.com.example.g\($0)" }], to: widgetEntitlements)
            try fixture.writePlist([key: ["group.com.example.g3"]], to: "Leaderboard.app/Leaderboard.entitlements")
        }.get()
        #expect(app.appGroups.count == 16)
    }

    @Test("two entitlements files in one extension: refused naming both")
    func two() throws {
        let error = try refusal { fixture in
            try fixture.writePlist([key: ["group.a.b"]], to: widgetEntitlements)
            try fixture.writePlist([key: ["group.c.d"]], to: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Other.entitlements")
        }
        #expect(error.message.contains("LeaderboardWidget.entitlements") && error.message.contains("Other.entitlements"))
    }
}
