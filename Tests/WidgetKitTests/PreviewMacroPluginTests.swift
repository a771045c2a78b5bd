import Foundation
import SandglassHost
import Testing

// The `#Preview` plugin as the compiler runs it: the built SandglassPreviewMacros executable,
// framed JSON requests on its standard input, framed replies read from its standard output.

/// One run of the plugin: what it replied, what it printed on standard error, how it ended.
struct PluginRun {
    var replies: [[String: Any]]
    var standardError: String
    var status: Int32

    /// The built plugin: next to the test bundle (SwiftPM builds it before the SDK's modules).
    static var executable: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("SandglassPreviewMacros-tool").path
    }

    /// A message with its 8-byte little-endian length.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { Array($0) } + payload
    }

    static func frame(json: Any) throws -> [UInt8] {
        frame(Array(try JSONSerialization.data(withJSONObject: json)))
    }

    /// Runs the plugin on `input`, then closes its standard input.
    static func run(_ input: [UInt8]) throws -> PluginRun {
        // A plugin that stops answering is killed after 30 s rather than hanging the suite.
        let outcome = try ChildProcess.run(executable, environment: testEnvironment, input: Data(input), timeout: .seconds(30))
        let output = [UInt8](outcome.output)
        let errors = String(decoding: outcome.error, as: UTF8.self)

        var replies: [[String: Any]] = []
        var rest = output[...]
        while rest.count >= 8 {
            let count = Int(rest.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            let payload = rest.dropFirst(8).prefix(count)
            #expect(payload.count == count, "a reply announced \(count) bytes and has \(payload.count)")
            replies.append(try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]))
            rest = rest.dropFirst(8 + count)
        }
        #expect(rest.isEmpty, "\(rest.count) bytes after the last reply")
        return PluginRun(replies: replies, standardError: errors, status: outcome.termination.status)
    }
}

/// The request the compiler sends for `source`, a use of the SDK's macro.
private func expansionRequest(_ source: String, typeName: String = "PreviewMacro", conditions: [String] = ["DEBUG"]) throws -> [UInt8] {
    let configuration = String(
        decoding: try JSONSerialization.data(withJSONObject: ["customConditions": conditions, "compilerVersion": ["components": [6, 3]]]),
        as: UTF8.self)
    return try PluginRun.frame(json: [
        "expandFreestandingMacro": [
            "macro": ["moduleName": "SandglassPreviewMacros", "typeName": typeName, "name": "Preview"],
            "macroRole": "declaration",
            "discriminator": discriminator,
            "syntax": [
                "kind": "declaration", "source": source,
                "location": ["fileID": "MyWidget/MyWidget.swift", "fileName": "/src/MyWidget.swift", "offset": 120, "line": 9, "column": 1]
            ],
            "lexicalContext": [],
            "staticBuildConfiguration": configuration
        ] as [String: Any]
    ])
}

private let discriminator = "$s8MyWidget0012MyWidgetswift_tiAIefMX8_0_33_0123456789ABCDEF0123456789ABCDEFLl7PreviewfMf_"
private let function = "@MainActor func \(discriminator)7previewfMu_() -> DeveloperToolsSupport.Preview {\n"
private let capability = (try? PluginRun.frame(json: ["getCapability": ["capability": ["protocolVersion": 9]]])) ?? []
/// The empty message the compiler sends before it closes the pipe.
private let goodbye = PluginRun.frame([])

/// The `expandMacroResult` of a reply.
private func expansion(_ reply: [String: Any]?) -> (source: String?, diagnostics: [[String: Any]])? {
    guard let result = reply?["expandMacroResult"] as? [String: Any], let diagnostics = result["diagnostics"] as? [[String: Any]] else {
        return nil
    }
    return (result["expandedSource"] as? String, diagnostics)
}

@Suite("the #Preview compiler plugin")
struct PreviewMacroPluginTests {
    @Test("answers the capability request and expands a widget preview and a view preview, each in a frame")
    func conversation() throws {
        let widget = """
            // MARK: previews, #Preview(in: a comment)
            @available(iOS 17.0, *)
            #Preview(as: .systemSmall) {
                MyWidget()
            } timeline: {
                SimpleEntry(date: .now, emoji: "😀")
            }
            """
        let view = "\n#Preview(\"Dark\") { SomeView() }"
        let run = try PluginRun.run(capability + expansionRequest(widget) + expansionRequest(view) + goodbye)

        #expect(run.status == 0, "stderr: \(run.standardError)")
        try #require(run.replies.count == 3)
        let version = ((run.replies[0]["getCapabilityResult"] as? [String: Any])?["capability"] as? [String: Any])?["protocolVersion"]
        #expect(version as? Int == 7)
        let expandedWidget = try #require(expansion(run.replies[1]))
        #expect(
            expandedWidget.source == function + """
                DeveloperToolsSupport.Preview(as: .systemSmall) {
                    MyWidget()
                } timeline: {
                    SimpleEntry(date: .now, emoji: "😀")
                }
                }
                """)
        #expect(expandedWidget.diagnostics.isEmpty)
        let expandedView = try #require(expansion(run.replies[2]))
        #expect(expandedView.source == function + "DeveloperToolsSupport.Preview(\"Dark\") { SomeView() }\n}")
        #expect(expandedView.diagnostics.isEmpty)
    }

    @Test("a preview without arguments is a trailing closure of the initializer")
    func trailingClosureOnly() throws {
        let run = try PluginRun.run(capability + expansionRequest("#Preview /* body: */ {\n    Text(\"a\")\n}"))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(try #require(expansion(run.replies.last)).source == function + "DeveloperToolsSupport.Preview {\n    Text(\"a\")\n}\n}")
    }

    @Test("in a module built with -D SANDGLASS_SKIP_PREVIEWS a preview expands to nothing")
    func skipCondition() throws {
        let run = try PluginRun.run(
            capability + expansionRequest("#Preview { Text(\"a\") }", conditions: ["DEBUG", "SANDGLASS_SKIP_PREVIEWS"]))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(try #require(expansion(run.replies.last)).source == "")
    }

    @Test("a use it cannot read (generic arguments, an unbalanced attribute) expands to nothing")
    func unreadableUse() throws {
        let uses = ["#Preview<MyWidget>(as: .systemSmall) { MyWidget() } timeline: { }", "@available(iOS 17, * #Preview { }", "Preview { }"]
        let run = try PluginRun.run(capability + uses.flatMap { try expansionRequest($0) })
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(run.replies.dropFirst().map { expansion($0)?.source } == ["", "", ""])
    }

    @Test("a macro type it does not have fails with an error at the use")
    func unknownMacro() throws {
        let run = try PluginRun.run(capability + expansionRequest("#Stringify(1)", typeName: "StringifyMacro"))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        let result = try #require(expansion(run.replies.last))
        #expect(result.source == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic["severity"] as? String == "error")
        #expect((diagnostic["message"] as? String)?.contains("no macro StringifyMacro") == true)
        let position = diagnostic["position"] as? [String: Any]
        #expect(position?["fileName"] as? String == "/src/MyWidget.swift")
        #expect(position?["offset"] as? Int == 120)
    }

    @Test("a compiler before protocol 5 gets the result under its old name")
    func legacyResultName() throws {
        let old = try PluginRun.frame(json: ["getCapability": ["capability": ["protocolVersion": 4]]])
        let run = try PluginRun.run(old + expansionRequest("#Preview { Text(\"a\") }"))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        let result = run.replies.last?["expandFreestandingMacroResult"] as? [String: Any]
        #expect((result?["expandedSource"] as? String)?.hasPrefix(function) == true)
    }

    @Test("a malformed message or a message cut short ends the plugin with status 1 and says why")
    func malformedInput() throws {
        let garbage = try PluginRun.run(PluginRun.frame(Array("{\"launchRockets\":{}}".utf8)))
        #expect(garbage.status == 1)
        #expect(garbage.replies.isEmpty)
        #expect(garbage.standardError.hasPrefix("SandglassPreviewMacros: "), "stderr: \(garbage.standardError)")

        let cut = try PluginRun.run(Array(capability.dropLast(3)))
        #expect(cut.status == 1)
        #expect(cut.standardError.contains("the input ended after"), "stderr: \(cut.standardError)")
    }
}
