import Foundation
import SandglassHost
import Testing

/// What one installed app may claim: its own identifiers, its own stored code. On both backends:
/// the bundles are the built examples (`linux`) or their templates (`embedded`).
@Suite("Bundle claims")
struct BundleClaimTests {
    /// A scratch directory removed at the end.
    struct Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString.prefix(8))").path
        func copy(_ app: String, to relative: String) throws -> String {
            let destination = path + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: app, toPath: destination)
            return destination
        }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test("two apps whose folders share a name keep their own stored code", arguments: Backend.tested)
    func sameFolderName(_ backend: Backend) async throws {
        let scratch = Scratch()
        let bundles = try BackendBundles(backend, [.leaderboard, .garbage])
        defer {
            scratch.remove()
            bundles.remove()
        }
        let first = try scratch.copy(bundles.path(.leaderboard), to: "a/Same.app")
        let second = try scratch.copy(bundles.path(.garbage), to: "b/Same.app")
        try await withHost(on: backend, apps: [.leaderboard, .garbage], installing: false) { host in
            let a = try await host.install(first)
            let b = try await host.install(second)
            #expect(a.path != b.path)
            let info =
                try PropertyListSerialization.propertyList(
                    from: Data(contentsOf: URL(fileURLWithPath: a.path + "/Info.plist")), format: nil) as? [String: Any]
            #expect(info?["CFBundleIdentifier"] as? String == a.bundleIdentifier, "the first app's stored copy is still its own")
            // ETXTBSY: another test of this process may be between clone and exec with the
            // descriptor of a copy still open; the next try finds the file free.
            var outcome = await host.activate("com.example.leaderboard.widget", .timeline, widget: "Leaderboard")
            for _ in 0..<3 {
                guard case .failed(let why)? = outcome, why.contains("Text file busy") else { break }
                outcome = await host.activate("com.example.leaderboard.widget", .timeline, widget: "Leaderboard")
            }
            guard case .timeline? = outcome else {
                Issue.record("the first app's widget no longer answers: \(String(describing: outcome))"); return
            }
        }
    }

    @Test("a second app claiming an installed app's or extension's identifier is refused, naming both paths", arguments: Backend.tested)
    func identifierClaimed(_ backend: Backend) async throws {
        let scratch = Scratch()
        let bundles = try BackendBundles(backend, [.leaderboard])
        defer {
            scratch.remove()
            bundles.remove()
        }
        let original = bundles.path(.leaderboard)
        let copy = try scratch.copy(original, to: "copy/Leaderboard.app")
        try await withHost(on: backend, apps: [.leaderboard], installing: false) { host in
            try await host.install(original)
            do {
                try await host.install(copy)
                Issue.record("the second app with the same identifier was installed")
            } catch let error as BundleError {
                #expect(error.description.contains(copy) && error.description.contains(original), "\(error)")
                #expect(error.key == "CFBundleIdentifier")
            }
            // An app of another identifier whose extension claims an installed extension's identifier.
            let plist = copy + "/Info.plist"
            var info =
                try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: plist)), format: nil)
                as! [String: Any]
            // `com.example`: the prefix of the installed extension's identifier, as an app's must be.
            info["CFBundleIdentifier"] = "com.example"
            try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: URL(fileURLWithPath: plist))
            do {
                try await host.install(copy)
                Issue.record("an extension claiming an installed extension's identifier was installed")
            } catch let error as BundleError {
                #expect(error.description.contains("an extension of the app already installed from \(original)"), "\(error)")
            }
        }
    }

    @Test("an executable that is a symbolic link out of the bundle is refused at install, not at spawn", arguments: Backend.tested)
    func executableLinkOut(_ backend: Backend) async throws {
        let scratch = Scratch()
        let bundles = try BackendBundles(backend, [.leaderboard])
        defer {
            scratch.remove()
            bundles.remove()
        }
        let app = try scratch.copy(bundles.path(.leaderboard), to: "linked/Leaderboard.app")
        let appex = try FileManager.default.contentsOfDirectory(atPath: app + "/PlugIns").first!
        let executable = app + "/PlugIns/" + appex + "/LeaderboardWidget"
        let outside = scratch.path + "/LeaderboardWidget"
        try FileManager.default.moveItem(atPath: executable, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: executable, withDestinationPath: outside)
        try await withHost(on: backend, apps: [.leaderboard], installing: false) { host in
            do {
                try await host.install(app)
                Issue.record("a bundle whose executable links outside it was installed")
            } catch let error as BundleError {
                #expect(error.description.contains("symbolic link") && error.description.contains("outside the bundle"), "\(error)")
            }
        }
    }
}
