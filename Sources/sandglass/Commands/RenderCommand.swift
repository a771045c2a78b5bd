import ArgumentParser
import Foundation
@_spi(Measurements) import SandglassHost
import SandglassIPC

/// `sandglass render APP.app --family systemMedium -o dir/`: the widgets' current entries as
/// SVG files, for snapshot tests.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw an app's widgets, entry by entry, as SVG files.",
        discussion: """
            Installs the app, asks every widget of its widget extensions (those that support the family) \
            for its placeholder and its timeline, as the system does, and writes each entry's view as a \
            standalone SVG file: KIND-FAMILY-placeholder-APPEARANCE.svg and KIND-FAMILY-N-APPEARANCE.svg \
            (N from 0, in the timeline's order). Dates that change with time are drawn as they read at each \
            entry's date. The drawing is a faithful layout of the view tree the extension rendered (frames, \
            text runs, colours, images by name and size), not Apple's pixels. Exit status 1 when an \
            activation failed or was killed (what happened is printed), 2 for bad input.

            Examples:
              sandglass render Leaderboard.app --family systemMedium -o snapshots/
              sandglass render AppleStyle.app --family systemSmall --kind EmojiRangerWidget --appearance dark -o out/
            """
    )

    @Argument(help: "The app bundle (.app) whose widgets to draw.")
    var app: String

    @Option(
        help:
            "The widget family: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline."
    )
    var family: String = "systemSmall"

    @Option(name: .shortAndLong, help: "The directory the SVG files go to (made if missing).")
    var output: String

    @Option(help: "Only the widgets of this kind.")
    var kind: String?

    @Option(help: "light, dark, or both (default both).")
    var appearance: AppearanceChoice = .both

    @Option(name: .customLong("budget"), help: "Set a budget for every extension: NAME=VALUE (as for run).")
    var budgets: [BudgetOption] = []

    @Option(name: .customLong("env"), help: "An environment variable for every extension process: NAME=VALUE (repeatable).")
    var environment: [String] = []

    @OptionGroup(title: "Sandbox")
    var sandbox: SandboxOptions

    func run() async throws {
        let failed = try await reportingBadInput { () async throws -> Bool in
            let families = [
                "systemSmall", "systemMedium", "systemLarge", "systemExtraLarge", "accessoryCircular", "accessoryRectangular",
                "accessoryInline"
            ]
            guard families.contains(family) else {
                throw BadInput("--family \(family): expected one of \(families.joined(separator: ", "))")
            }
            var configuration = HostConfiguration.temporary()
            defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
            configuration.schedulesWidgets = false
            sandbox.apply(to: &configuration)
            for budget in budgets { budget.apply(&configuration.budgetOverrides) }
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw BadInput("--env \(pair): expected NAME=VALUE") }
                configuration.extensionEnvironment[parts[0]] = parts[1]
            }
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw BadInput("-o \(output): cannot make the directory: \(error.localizedDescription)")
            }
            let host = try await ExtensionHost(configuration)
            let bundle: AppBundle
            do {
                bundle = try await host.install(app)
            } catch let error as BundleError {
                _ = await host.shutdown()
                throw BadInput("cannot install \(app): \(error)")
            }
            // The host is shut down — its extensions killed and reaped — before the defer
            // removes the data directory, whatever fails while drawing.
            let drawing: (written: Int, failed: Bool, drawn: Int)
            do {
                drawing = try await draw(bundle, on: host)
            } catch {
                _ = await host.shutdown()
                throw error
            }
            _ = await host.shutdown()
            if drawing.drawn == 0 && kind != nil { throw BadInput("\(app) has no widget of kind \(kind!) in \(family)") }
            say("wrote \(drawing.written) SVG file\(drawing.written == 1 ? "" : "s") to \(output)")
            return drawing.failed
        }
        if failed { throw ExitCode(1) }
    }

    /// Draws each entry of each widget of `bundle` in the family into the output directory. What
    /// an extension names (its kinds, families, errors) is printed with its control characters
    /// written out.
    private func draw(_ bundle: AppBundle, on host: ExtensionHost) async throws -> (written: Int, failed: Bool, drawn: Int) {
        let shown = TraceRenderer.printable
        var written = 0, failed = false, drawn = 0
        var bases: [String: String] = [:]
        for ext in bundle.extensions where ext.point == .widgetKit {
            guard await host.launch(ext.bundleIdentifier) != nil,
                let hello = await host.events().last(where: { $0.kind == .hello && $0.bundle == ext.bundleIdentifier })
            else {
                say("\(shown(ext.bundleIdentifier)): did not start (see the log lines above)")
                failed = true
                continue
            }
            for widget in Self.widgets(in: hello) where kind == nil || widget.kind == kind {
                guard widget.families.contains(family) else {
                    say(
                        "\(shown(widget.kind)) (\(ext.bundleIdentifier)) does not support \(family); it supports \(shown(widget.families.joined(separator: ", ")))"
                    )
                    continue
                }
                drawn += 1
                // Two extensions of the app with one kind: the second's files carry its bundle's hash.
                var base = Self.safe(widget.kind)
                while let owner = bases[base], owner != ext.bundleIdentifier { base += "-" + Self.fnv(ext.bundleIdentifier) }
                bases[base] = ext.bundleIdentifier
                for (activation, label) in [(ActivationKind.placeholder, "placeholder"), (.timeline, "timeline")] {
                    let outcome = await host.activate(ext.bundleIdentifier, activation, widget: widget.kind, family: family)
                    let entries: [EntryPayload]
                    switch outcome {
                    case .entry(let entry)?: entries = [entry]
                    case .timeline(let timeline)?: entries = timeline.entries
                    default:
                        say(
                            "\(shown(widget.kind)) (\(ext.bundleIdentifier)): \(label) \(outcome.map { "\($0.label)" } ?? "not run")\(shown(Self.detail(outcome)))"
                        )
                        failed = true
                        continue
                    }
                    if entries.count > Self.entriesPerWidget {
                        say(
                            "\(shown(widget.kind)) (\(ext.bundleIdentifier)): the first \(Self.entriesPerWidget) of the timeline's \(entries.count) entries drawn"
                        )
                    }
                    for (index, entry) in entries.prefix(Self.entriesPerWidget).enumerated() {
                        guard let view = entry.view else {
                            say("\(shown(widget.kind)): entry \(index) has no view (the configuration has no content closure)")
                            continue
                        }
                        let name = activation == .placeholder ? "placeholder" : String(index)
                        for appearance in appearance.appearances {
                            let file = "\(base)-\(family)-\(name)-\(appearance.rawValue).svg"
                            let svg = WidgetDrawing(view, appearance: appearance, family: family).svg(at: entry.date, standalone: true)
                            try Data(svg.utf8).write(to: URL(fileURLWithPath: output).appendingPathComponent(file))
                            written += 1
                        }
                    }
                }
            }
        }
        return (written, failed, drawn)
    }

    /// The entries of a timeline drawn, each in every appearance: 4,096 entries of 128 kinds
    /// would be a million files.
    static let entriesPerWidget = 64

    /// The widgets a `hello` event declares, with their families.
    static func widgets(in hello: HostEvent) -> [(kind: String, families: [String])] {
        guard case .array(let kinds)? = hello["kinds"] else { return [] }
        return kinds.compactMap(\.stringValue).map { kind in
            let families: [String] = if case .array(let f)? = hello["families"]?[kind] { f.compactMap(\.stringValue) } else { [] }
            return (kind, families)
        }
    }

    static func detail(_ outcome: ActivationOutcome?) -> String {
        switch outcome {
        case .killed(let reason)?: " (\(reason.rawValue))"
        case .failed(let reason)?: ": \(reason)"
        default: ""
        }
    }

    /// A kind as part of a file name: letters, digits, `-`, `_` and `.` kept, any other code
    /// point `_`; past 120 bytes cut; when anything was replaced or cut, a hash of the whole kind
    /// follows, so that two kinds stay apart (a kind is up to 256 bytes, a file name at most 255
    /// with its family and entry).
    static func safe(_ kind: String) -> String {
        // By code point, not by character: a letter that joins the next code point (U+0D4E, a
        // prepending letter) made "x\u{0D4E}/y" one letter, and its `/` a directory of the path.
        var kept = String.UnicodeScalarView()
        for scalar in kind.unicodeScalars {
            let allowed = scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.".unicodeScalars.contains(scalar)
            kept.append(allowed ? scalar : "_")
        }
        let name = String(kept)
        // Anything replaced or cut, the hash of the whole kind keeps two kinds apart (`a/b`, `a:b`).
        guard name.utf8.count > 120 || name != kind else { return name }
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= 110 else { break }
            cut.append(character)
        }
        return cut + "-" + fnv(kind)
    }

    /// The FNV-1a hash of `text`'s bytes, in hexadecimal.
    static func fnv(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(hash, radix: 16)
    }
}

/// `--appearance light|dark|both`.
enum AppearanceChoice: String, ExpressibleByArgument, CaseIterable {
    case light, dark, both

    var appearances: [WidgetDrawing.Appearance] {
        switch self {
        case .light: [.light]
        case .dark: [.dark]
        case .both: [.light, .dark]
        }
    }
}
