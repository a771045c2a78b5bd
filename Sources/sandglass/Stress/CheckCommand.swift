import ArgumentParser
import Foundation
import SandglassHost

/// `sandglass check F.jsonl`: the invariants over any event log.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the invariants over an event log (of run, stress, or your own tests).",
        discussion: """
            Prints one verdict per invariant (for the log of a stress run, its whole summary) and an \
            invariant.violated line for each violation. \
            Exit status 0 when every invariant held, 1 when one did not, 2 when the log cannot be read.

            Examples:
              sandglass check run.jsonl
              sandglass check run.jsonl --allow-pending
            """
    )

    @Argument(help: "The event log (JSON lines).")
    var log: String

    @Flag(
        help:
            "Accept downloads and events still waiting for delivery or acknowledgement when the log ends (a run stopped before it drained)."
    )
    var allowPending = false

    func run() async throws {
        let events: [HostEvent]
        do {
            events = try HostEvent.read(logAt: log)
        } catch {
            FileHandle.standardError.write(Data("sandglass: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let report = InvariantChecker(allowPendingAtEnd: allowPending).check(events)
        // A stress run's log: its summary again, recounted from the log.
        say(events.contains { $0.kind == .stressStart } ? "\(StressSummary(events: events, report: report))" : "\(report)")
        for event in report.violationEvents(at: events.last?.t ?? 0) { say(event.jsonLine) }
        if !report.held { throw ExitCode(1) }
    }
}
