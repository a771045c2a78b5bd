import Foundation
import Glibc
import PropertyListSupport
import SandglassHost
import Testing

/// App groups in the real sandbox (Relay.app): the app (the host API) writes the group's
/// defaults and files, the widget reads them with `UserDefaults(suiteName:)` and
/// `containerURL(forSecurityApplicationGroupIdentifier:)` and writes back; an undeclared group
/// is nil; another app's extension cannot reach the group; and the host's writes never follow
/// a link planted in the group's container.
@Suite("App groups", .serialized)
struct AppGroupTests {
    static let relay = "com.example.relay.widget"
    static let group = "group.com.example.relay"

    /// The first entry of the next RelayStatus timeline that satisfies `predicate`.
    private func relayEntry(
        _ host: ExtensionHost, _ predicate: @escaping @Sendable ([String: JSONValue]) -> Bool = { _ in true }
    ) async throws -> [String: JSONValue] {
        @Sendable func entry(_ event: HostEvent) -> [String: JSONValue]? {
            guard event.bundle == Self.relay, event.string("kind") == "RelayStatus",
                case .array(let entries)? = event["entries"]?.resolved, case .object(let fields)? = entries.first
            else { return nil }
            return Dictionary(fields, uniquingKeysWith: { a, _ in a })
        }
        let event = try await host.waitFor("timeline", timeout: .seconds(60)) { entry($0).map(predicate) ?? false }
        return entry(event) ?? [:]
    }

    @Test("the app's defaults and files reach the widget through the group, the widget's writes reach the app; an undeclared group is nil")
    func shared() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            group.defaults["relayData"] = "leg 3 of 7: Amy"
            try group.write(Data("Amy, Bo, Cy".utf8), to: "Library/Caches/roster.txt")
            await host.start()
            let first = try await relayEntry(host)
            #expect(first["relay"] == .string("leg 3 of 7: Amy"))
            #expect(first["roster"] == .string("Amy, Bo, Cy"))
            #expect(first["undeclaredGroupIsNil"] == .bool(true))
            #expect(first["reads"] == .int(1))

            // The app changes the relay and reloads its widgets, as apps do.
            group.defaults["relayData"] = "leg 4 of 7: Bo"
            #expect(group.defaults.lastError == nil)
            await host.reloadTimelines(ofKind: "RelayStatus")
            let second = try await relayEntry(host) { $0["relay"] == .string("leg 4 of 7: Bo") }
            #expect(second["reads"] == .int(2))
            // What the widget wrote (UserDefaults.set in getTimeline) is the app's to read.
            #expect(group.defaults.integer(forKey: "widgetReads") == 2)
            #expect(group.defaults.string(forKey: "relayData") == "leg 4 of 7: Bo")
        }
    }

    @Test("a group seeded from a directory (--app-group group.x=DIR): the widget sees its files and defaults")
    func seeded() async throws {
        let seed = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: seed) }
        try FileManager.default.createDirectory(atPath: seed + "/Library/Caches", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: seed + "/Library/Preferences", withIntermediateDirectories: true)
        try "Dee, Eve".write(toFile: seed + "/Library/Caches/roster.txt", atomically: false, encoding: .utf8)
        try PropertyListSerialization.data(fromPropertyList: ["relayData": "seeded relay"], format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: seed + "/Library/Preferences/\(Self.group).plist"))
        try await withHost({ $0.appGroupSeeds[Self.group] = seed }) { host in
            try await host.install(Examples.app("Relay.app"))
            await host.start()
            let entry = try await relayEntry(host)
            #expect(entry["relay"] == .string("seeded relay"))
            #expect(entry["roster"] == .string("Dee, Eve"))
        }
        // A link in the seed is refused, naming it.
        try FileManager.default.createSymbolicLink(atPath: seed + "/Library/Caches/passwd", withDestinationPath: "/etc/passwd")
        try await withHost({ $0.appGroupSeeds[Self.group] = seed }) { host in
            do {
                try await host.install(Examples.app("Relay.app"))
                Issue.record("a seed with a symbolic link was copied")
            } catch {
                #expect("\(error)".contains("Library/Caches/passwd") && "\(error)".contains("symbolic link"))
            }
        }
        // A FIFO, and a file past what the host reads (sparse: 65 MiB of nothing): refused, each
        // named, nothing waited on, nothing read whole.
        try FileManager.default.removeItem(atPath: seed + "/Library/Caches/passwd")
        #expect(mkfifo(seed + "/Library/Caches/pipe", 0o644) == 0)
        try await withHost({ $0.appGroupSeeds[Self.group] = seed }) { host in
            await #expect {
                try await host.install(Examples.app("Relay.app"))
            } throws: { error in
                "\(error)".contains("Library/Caches/pipe is a FIFO")
            }
        }
        try FileManager.default.removeItem(atPath: seed + "/Library/Caches/pipe")
        #expect(FileManager.default.createFile(atPath: seed + "/Library/Caches/huge.bin", contents: nil))
        #expect(truncate(seed + "/Library/Caches/huge.bin", 65 << 20) == 0)
        try await withHost({ $0.appGroupSeeds[Self.group] = seed }) { host in
            await #expect {
                try await host.install(Examples.app("Relay.app"))
            } throws: { error in
                "\(error)".contains("Library/Caches/huge.bin is 68157440 bytes")
            }
        }
    }

    @Test("another app's extension naming the same group gets a container of its own and cannot read Relay's")
    func otherApp() async throws {
        var target = ""
        try await withHost({ configuration in
            target = configuration.dataDirectory + "/AppGroups/com.example.relay/\(Self.group)"
            configuration.extensionEnvironment["PROBE_TARGET"] = target
        }) { host in
            try await host.install(Examples.app("Relay.app"))
            try await host.install(Examples.app("Intruder.app"))
            let relay = try host.appGroup(Self.group, app: "com.example.relay")
            #expect(relay.path == target)
            relay.defaults["relayData"] = "for Relay's widget only"
            await host.start()
            let event = try await host.waitFor("timeline", timeout: .seconds(60)) { $0.bundle == "com.example.intruder.widget" }
            guard case .array(let entries)? = event["entries"]?.resolved, let entry = entries.first else {
                Issue.record("no entry"); return
            }
            #expect(entry["relayData"] == nil, "the intruder's group of that name is its own, empty")
            let own = entry["container"]?.stringValue ?? ""
            #expect(own.contains("com.example.intruder") && own != target)
            #expect(
                entry["listing"]?.stringValue?.hasPrefix("denied") == true,
                "listing Relay's container: \(entry["listing"]?.stringValue ?? "")")
            #expect(
                entry["defaultsFile"]?.stringValue?.hasPrefix("denied") == true,
                "opening Relay's defaults: \(entry["defaultsFile"]?.stringValue ?? "")")
        }
    }

    @Test("links an extension plants in the group's container never make the host write or read what they lead to")
    func plantedLinks() async throws {
        let (directory, file) = try makeVictim()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            let fm = FileManager.default
            // The test plays the extension, which may write anywhere in the group's container.
            let defaultsPath = group.path + "/Library/Preferences/\(Self.group).plist"
            try fm.createSymbolicLink(atPath: defaultsPath, withDestinationPath: file)
            #expect(throws: (any Error).self) { try group.defaults.dictionaryRepresentation() }
            try group.defaults.set("written", forKey: "relayData")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
            #expect(group.defaults.string(forKey: "relayData") == "written", "the link was replaced by the suite's file")

            // A directory of the path replaced by a link to the victim's directory.
            try fm.removeItem(atPath: group.path + "/Library/Caches")
            try fm.createSymbolicLink(atPath: group.path + "/Library/Caches", withDestinationPath: directory)
            try group.write(Data("Amy".utf8), to: "Library/Caches/roster.txt")
            #expect(!fm.fileExists(atPath: directory + "/roster.txt"), "the host wrote through the link")
            var st = stat()
            #expect(lstat(group.path + "/Library/Caches", &st) == 0 && st.st_mode & S_IFMT == S_IFDIR)
            #expect(try group.read("Library/Caches/roster.txt") == Data("Amy".utf8))

            // Reading a link, or a pipe nobody writes, is refused at once.
            try fm.createSymbolicLink(atPath: group.path + "/Library/Caches/link", withDestinationPath: file)
            #expect(throws: (any Error).self) { _ = try group.read("Library/Caches/link") }
            #expect(mkfifo(group.path + "/Library/Caches/pipe", 0o666) == 0)
            #expect(throws: (any Error).self) { _ = try group.read("Library/Caches/pipe") }
            #expect(throws: (any Error).self) { try group.write(Data(), to: "../escape") }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
        }
    }

    /// 28 arrays, each two references to the next: 150 bytes, 2^29 values as Foundation would build them.
    @Test(
        "defaults an extension wrote as a bomb of shared references are refused at once, named; the host's next write fails too, and leaves them as they are"
    )
    func defaultsReferenceBomb() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            // The test plays the extension, which may write anywhere in the group's container.
            let file = "Library/Preferences/\(Self.group).plist"
            let bomb = BinaryPlist.sharedReferenceBomb(levels: 28).data
            #expect(bomb.count < 200)
            try bomb.write(to: URL(fileURLWithPath: group.path + "/" + file))
            let started = ContinuousClock.now
            #expect {
                try group.defaults.dictionaryRepresentation()
            } throws: { error in
                "\(error)".contains("\(file) is a binary property list whose references expand to more than 1000000 values")
            }
            #expect(group.defaults["relayData"] == nil)
            #expect(ContinuousClock.now - started < .seconds(2), "the host took \(ContinuousClock.now - started) to refuse the bomb")
            // The file is left as it is: a write fails, naming it, and loses nothing.
            #expect {
                try group.defaults.set("written", forKey: "relayData")
            } throws: { error in
                "\(error)".contains("\(file) is a binary property list")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: group.path + "/" + file)) == bomb)
        }
    }

    @Test(
        "defaults past 4 MiB are refused for their size, read or written, and a write never replaces them; a file of the container that large is read"
    )
    func defaultsSizeLimit() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            let file = "Library/Preferences/\(Self.group).plist"
            #expect(FileManager.default.createFile(atPath: group.path + "/" + file, contents: nil))
            #expect(truncate(group.path + "/" + file, (4 << 20) + 1) == 0)
            #expect {
                try group.defaults.dictionaryRepresentation()
            } throws: { error in
                "\(error)".contains("\(file)\" is 4194305 bytes, over the 4194304-byte limit")
            }
            // A write neither replaces a suite it cannot read nor writes one it could not read back.
            #expect(throws: AppGroupError.self) { try group.defaults.set("written", forKey: "relayData") }
            var info = stat()
            #expect(stat(group.path + "/" + file, &info) == 0 && info.st_size == (4 << 20) + 1, "the suite was replaced")
            try FileManager.default.removeItem(atPath: group.path + "/" + file)
            #expect {
                try group.defaults.set(Data(count: 4 << 20), forKey: "picture")
            } throws: { error in
                "\(error)".contains("over the 4 MiB the host reads; nothing was written")
            }
            try group.write(Data(count: (4 << 20) + 1), to: "Library/Caches/large.bin")
            #expect(try group.read("Library/Caches/large.bin")?.count == (4 << 20) + 1)
        }
    }

    @Test("two extensions of the app, each its own uid, share the group: what the app and the widget wrote, the other reads")
    func twoExtensions() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            group.defaults["relayData"] = "leg 5 of 7: Cy"
            await host.start()
            // The widget counts its read into the group's suite (its own file, then merged).
            let entry = try await relayEntry(host)
            #expect(entry["reads"] == .int(1))
            #expect(group.defaults.integer(forKey: "widgetReads") == 1)
            await host.reloadTimelines(ofKind: "Probe")
            let probe = try await host.waitFor("timeline", timeout: .seconds(60)) { event in
                guard event.bundle == "com.example.relay.probe", case .array(let entries)? = event["entries"]?.resolved,
                    case .array(let keys)? = entries.first?["groupKeys"]
                else { return false }
                return keys.contains(.string("widgetReads"))
            }
            guard case .array(let entries)? = probe["entries"]?.resolved, let first = entries.first else { return }
            #expect(first["relayData"] == .string("leg 5 of 7: Cy"))
            #expect(first["container"] == .string(group.path))
            if getuid() == 0 {
                // Each extension its own uid: the group is what they share.
                let containers = URL(fileURLWithPath: group.path).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("Containers").path
                var widget = stat(), probe = stat()
                #expect(lstat(containers + "/" + Self.relay, &widget) == 0 && lstat(containers + "/com.example.relay.probe", &probe) == 0)
                #expect(widget.st_uid != probe.st_uid && widget.st_uid != 0 && probe.st_uid != 0)
            }
        }
    }

    @Test(
        "extensions share the group by gid: its container is setgid, of the group's gid, and the extension carries it",
        .enabled(if: getuid() == 0))
    func sharedByGid() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Relay.app"))
            let group = try host.appGroup(Self.group)
            await host.start()
            _ = try await relayEntry(host)
            var st = stat()
            #expect(lstat(group.path, &st) == 0)
            #expect(st.st_mode & 0o7777 == 0o2770)
            #expect(st.st_uid == 0)
            let gid = st.st_gid
            #expect((60_000...60_999).contains(gid))
            // The widget wrote its reads into the group's suite: a file of its own uid, of the group's gid.
            #expect(lstat(group.path + "/Library/Preferences/\(Self.group).plist", &st) == 0)
            #expect(st.st_gid == gid && st.st_uid != 0)
            let pid = try #require(await host.liveProcesses()[Self.relay])
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let groups = status.split(separator: "\n").first { $0.hasPrefix("Groups:") } ?? ""
            #expect(groups.split(separator: "\t").last?.split(separator: " ").map(String.init) == ["\(gid)"])
        }
    }
}
