import ArgumentParser
import Foundation
import SandglassHost

/// `sandglass explain --log F.jsonl --widget KIND`: why a widget did or did not reload.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain from an event log why a widget did or did not reload.",
        discussion: """
            Reads the event log of a run (sandglass run --log F.jsonl) and tells, for each widget, what \
            blocked its next reload at the end of the log — its timeline's policy date, its reload budget \
            (exhausted until when), its extension's backoff after failures, a permanent failure — with its \
            budget over the last 24 hours and the history of decisions: every reload charged, exempt (and \
            why), denied (and until when), failed. Without --widget, one line per widget.

            Examples:
              sandglass run Fleet.app --duration 3d --clock virtual --log run.jsonl --quiet
              sandglass explain --log run.jsonl
              sandglass explain --log run.jsonl --widget Greedy --last 40
              sandglass explain --log run.jsonl --widget com.example.fleet.alpha/Eager/systemSmall --at 1d
            """
    )

    @Option(help: "The event log (JSON lines) of a run.")
    var log: String

    @Option(help: "The widget: its kind, bundle/kind/family, or an extension's bundle identifier (all its widgets).")
    var widget: String?

    @Option(help: "How many of the latest decisions to show per widget.")
    var last: Int = 20

    @Option(parsing: .unconditional, help: "Explain as of this run time (e.g. 36h) instead of the end of the log.")
    var at: DurationArgument?

    func run() async throws {
        try await reportingBadInput {
            let events: [HostEvent]
            do {
                events = try HostEvent.read(logAt: log)
            } catch let error as EventLogReadError {
                throw BadInput(error.description)
            }
            let now = at.map { d -> Double in
                let c = d.duration.components; return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
            }
            let known = WidgetExplanation.widgets(in: events)
            guard !known.isEmpty else { throw BadInput("\(log) records no widget (no widget.added event)") }
            guard let widget else {
                for id in known {
                    guard let explanation = WidgetExplanation.explain(id, in: events, now: now).first else { continue }
                    say(
                        TraceRenderer.printable(
                            "\(id): \(explanation.statusText) · \(explanation.chargedInWindow) charged, \(explanation.exemptInWindow) exempt, \(explanation.deniedInWindow) denied in the last 24 h"
                        ))
                }
                return
            }
            let explanations = WidgetExplanation.explain(widget, in: events, now: now)
            guard !explanations.isEmpty else {
                throw BadInput(TraceRenderer.printable("no widget \(widget) in \(log); its widgets are: \(known.joined(separator: ", "))"))
            }
            say(explanations.map { $0.rendered(last: last) }.joined(separator: "\n\n"))
        }
    }
}
