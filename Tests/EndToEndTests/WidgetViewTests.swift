import Foundation
import SandglassHost
import SandglassIPC
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Widgets' views under the host, with real processes: rendered in the extension's process
/// inside its activation's memory and time, recorded with the timeline, drawn by
/// `sandglass render`.
@Suite("Widget views", .serialized)
struct WidgetViewTests {
    @Test(
        "a view that draws a 4000 × 3000 photo is killed with reason memory while rendering its entry; a body that traps crashes its activation"
    )
    func viewsMisbehave() async throws {
        try await withHost { host in
            try await host.install(Examples.app("HeavyView.app"))
            await host.start()
            let killed = try await host.waitFor("killed", timeout: .seconds(60)) { $0.string("reason") == "memory" }
            #expect(killed.bundle == "com.example.heavyview.photo")
            let end = try await host.waitFor("activation.end", timeout: .seconds(60)) { $0.bundle == killed.bundle && $0.pid == killed.pid }
            #expect(
                end.string("outcome") == "killed" && end.string("reason") == "memory",
                "the provider answered at once: the view's decoded bitmap took the memory")

            // Its own end, not a kill of the host's (a loaded machine may miss the launch budget first).
            let crashed = try await host.waitFor("exited", timeout: .seconds(60)) {
                $0.bundle == "com.example.heavyview.trap" && $0["reason"] == nil
            }
            #expect(["SIGILL", "SIGTRAP"].contains(crashed.string("signal") ?? ""), "\(crashed.jsonLine)")
            let failed = try await host.waitFor("activation.end", timeout: .seconds(60)) {
                $0.bundle == "com.example.heavyview.trap" && $0.pid == crashed.pid
            }
            #expect(failed.string("outcome") == "failed")
            #expect(!(await host.events()).contains { $0.kind == .timeline && $0.bundle?.hasPrefix("com.example.heavyview") == true })
        }
    }

    @Test("the Emoji Rangers widget: each entry of the timeline event carries its view, rendered in the extension, and the render time")
    func timelineRecordsViews() async throws {
        try await withHost { host in
            try await host.install(Examples.app("AppleStyle.app"))
            await host.start()
            let timeline = try await host.waitFor("timeline") { $0.bundle == "com.example.applestyle.widget" }
            guard case .array(let entries)? = timeline["entries"], case .array(let views)? = timeline["views"],
                case .array(let texts)? = timeline["texts"]
            else {
                Issue.record("no entries, views or texts: \(timeline.jsonLine.prefix(400))"); return
            }
            #expect(views.count == entries.count)
            for (view, text) in zip(views, texts) {
                let rendering = try #require(ViewRendering(json: view))
                #expect(rendering.light.family == "systemSmall" && rendering.light.width == 170)
                #expect(rendering.light.plainText == text.stringValue)
                #expect(rendering.light.plainText.contains("Power Panda"))
                #expect(rendering.light.nodes.contains { $0.flags.contains(.containerBackground) })
            }
            #expect((timeline.double("renderMs") ?? 0) > 0)
            let end = try await host.waitFor("activation.end") {
                $0.bundle == "com.example.applestyle.widget" && $0.string("kind") == "timeline"
            }
            #expect(
                (end.double("renderMs") ?? 0) > 0 && (end.double("renderMs") ?? 0) <= (end.double("ms") ?? 0),
                "the render is part of the activation")
        }
    }

    @Test("Relay, as the app shares it: defaults the app wrote to the group and the Leg intent's configuration are what the widgets draw")
    func sharedDataIsDrawn() async throws {
        try await withHost({
            $0.widgetConfigurations["Leg"] = #"{"runner": {"identifier": "amy", "displayString": "Amy"}, "leg": 3}"#
        }) { host in
            try await host.install(Examples.app("Relay.app"))
            try host.appGroup("group.com.example.relay").defaults["relayData"] = "leg 3 of 7: Amy"
            await host.start()
            @Sendable func drawn(_ event: HostEvent) -> [String] {
                guard case .array(let texts)? = event["texts"] else { return [] }
                return texts.compactMap(\.stringValue)
            }
            for (kind, text) in [("RelayStatus", "leg 3 of 7: Amy · read 1×"), ("Leg", "Amy · leg 3 (km)")] {
                let timeline = try await host.waitFor("timeline", timeout: .seconds(60)) {
                    $0.bundle == "com.example.relay.widget" && $0.string("kind") == kind
                }
                let texts = drawn(timeline)
                #expect(!texts.isEmpty && texts.allSatisfy { $0.contains(text) }, "\(kind): \(texts)")
                guard case .array(let views)? = timeline["views"], let first = views.first,
                    let rendering = ViewRendering(json: first)
                else {
                    Issue.record("\(kind): no rendered view"); continue
                }
                #expect(rendering.light.family == "systemSmall" && rendering.light.width == 170)
                #expect(rendering.light.nodes.contains { $0.flags.contains(.containerBackground) })
            }
        }
    }

    @Test(
        "sandglass render writes each entry as a standalone SVG file, light and dark; a family the widget lacks is said; a bad one is refused"
    )
    func renderCommand() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-e2e-render-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await CommandLineTests.run([
            "render", try Examples.app("Leaderboard.app"), "--family", "systemMedium", "-o", dir.path
        ])
        #expect(result.status == 0, "\(result.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files.contains("Leaderboard-systemMedium-placeholder-light.svg"))
        #expect(files.contains("Leaderboard-systemMedium-5-dark.svg"), "six entries: \(files)")
        #expect(files.contains("NextMatch-systemMedium-0-light.svg"))
        let leader = try String(contentsOf: dir.appendingPathComponent("Leaderboard-systemMedium-0-light.svg"), encoding: .utf8)
        #expect(leader.hasPrefix("<?xml") && leader.contains("width=\"364\" height=\"170\"") && leader.contains(">Round "))
        for file in files {
            _ = try XMLDocument(data: Data(contentsOf: dir.appendingPathComponent(file)), options: [])
        }
        if Chromium.path != nil || Chromium.isRequired {
            // As a user's snapshot test would open it: a browser parses the file and draws it.
            let page = try await Chromium.open(dir.appendingPathComponent("NextMatch-systemMedium-0-dark.svg").path)
            #expect(page.dom.contains("class=\"widget-drawing\"") && !page.dom.contains("parsererror"), "\(page.dom.prefix(300))")
        }
        let placeholder = try String(
            contentsOf: dir.appendingPathComponent("Leaderboard-systemMedium-placeholder-light.svg"), encoding: .utf8)
        #expect(placeholder.contains("class=\"redacted\"") && !placeholder.contains(">Round "))

        let inline = try await CommandLineTests.run([
            "render", try Examples.app("Leaderboard.app"), "--family", "accessoryInline", "-o", dir.path
        ])
        #expect(inline.status == 0)
        #expect(inline.output.contains("Leaderboard (com.example.leaderboard.widget) does not support accessoryInline"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("NextMatch-accessoryInline-0-dark.svg").path))

        let bad = try await CommandLineTests.run(["render", try Examples.app("Leaderboard.app"), "--family", "systemHuge", "-o", dir.path])
        #expect(bad.status == 2 && bad.error.contains("--family systemHuge"))
    }

    @Test(
        "sandglass render of a hostile extension: a kind that is an escape sequence is printed with it written out; a kind too long for a file name makes a shorter one; a kind's / never makes a directory, and a/b and a:b stay apart"
    )
    func renderHostileKinds() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-e2e-render-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await CommandLineTests.run([
            "render", try Examples.app("RogueControl.app"), "--family", "systemMedium", "-o", dir.path
        ])
        let printed = result.output + result.error
        #expect(!printed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(printed)")
        #expect(printed.contains("\\u{1B}]52;c;cHduZWQ=\\u{7}\\u{1B}[2J (com.example.roguecontrol.painter) does not support systemMedium"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        let long = files.filter { $0.hasPrefix("ééé") }
        #expect(long.count == 4, "the placeholder and one entry, light and dark: \(files); \(printed)")
        #expect(long.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(".svg") })
        #expect(Set(long).count == 4)
        // Every file is in the output directory itself: no kind's `/` made a directory of the path.
        #expect(!result.error.contains("Error"), "\(printed)")
        let plainFiles = files.map { name -> Bool in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: dir.path + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(plainFiles.allSatisfy { $0 }, "\(files)")
        #expect(files.filter { $0.hasPrefix("x") && $0.contains("_y-") }.count == 4, "\(files)")
        // `a/b` and `a:b` are apart: the placeholder and one entry, light and dark, each.
        #expect(Set(files.filter { $0.hasPrefix("a_b-") }).count == 8, "\(files)")
    }
}
