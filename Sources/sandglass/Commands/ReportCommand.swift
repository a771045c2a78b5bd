import ArgumentParser
import Foundation
import SandglassHost

/// `sandglass report LOG.jsonl… -o report.html`: one self-contained HTML page of one or more runs.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Make one self-contained HTML report (and optionally a Perfetto trace) of one or more event logs.",
        discussion: """
            The page needs no network: styles, script and charts are inline. For each run: a lifecycle chart per \
            extension (processes, activations, kills with their reason, relaunches by identifier linked to the \
            download that caused them), each widget's entries over time with their text rendering, the reload \
            ledger, and the verdicts. Several logs — the shards of a campaign — are merged into one page with \
            their totals. Exit status 0 when every run passed, 1 when a verdict is a failure, 2 for bad input.

            Examples:
              sandglass report run.jsonl -o report.html
              sandglass report results/shard-*.jsonl -o campaign.html --trace campaign.trace.json
            """
    )

    @Argument(help: "Event logs (JSON lines, from --log) to report on.")
    var logs: [String]

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the HTML report here.")
    var output: String?

    @Option(help: "Also write the runs as a Chrome / Perfetto trace (JSON) here.")
    var trace: String?

    @Option(help: "The page's title.")
    var title: String?

    @Flag(help: "Print only errors.")
    var quiet = false

    @Flag(help: "Print the verdict and counts of each run as JSON on standard output.")
    var json = false

    func run() async throws {
        let passed = try await reportingBadInput { () async throws -> Bool in
            guard !logs.isEmpty else { throw BadInput("name at least one event log (the file given to run --log)") }
            guard output != nil || trace != nil || json else {
                throw BadInput("say where the report goes: -o report.html (or --trace F.json, --json)")
            }
            let runs: [RunLog]
            do {
                runs = try RunLog.read(logs)
            } catch let error as RunLogError {
                throw BadInput(error.description)
            }
            var report = HTMLReport(runs: runs)
            if let title { report.title = title }
            if let output {
                try report.write(to: output)
                if !quiet && !json {
                    let style = TerminalStyle.standardOutput
                    let failures = report.analyses.flatMap(\.verdicts).filter { $0.severity == .failure }.count
                    let warnings = report.analyses.flatMap(\.verdicts).count - failures
                    say(
                        "\(style.verdict(report.passed)) \(runs.count) run\(runs.count == 1 ? "" : "s") · \(failures) failures · \(warnings) warnings → \(output)"
                    )
                }
            }
            if let trace {
                try PerfettoTrace.write(runs, to: trace)
                if !quiet && !json { say("trace → \(trace) (open it in ui.perfetto.dev or chrome://tracing)") }
            }
            if json {
                let runsJSON: [JSONValue] = report.analyses.map { analysis in
                    .object([
                        ("source", .string(analysis.run.source)), ("label", .string(analysis.run.label)),
                        ("passed", .bool(analysis.passed)), ("durationMs", .double(analysis.run.durationMs)),
                        ("spawns", .int(Int64(analysis.summary.spawns))), ("activations", .int(Int64(analysis.summary.activations))),
                        (
                            "kills",
                            .object(analysis.summary.killsByReason.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })
                        ),
                        ("failures", .int(Int64(analysis.verdicts.filter { $0.severity == .failure }.count))),
                        ("warnings", .int(Int64(analysis.verdicts.filter { $0.severity == .warning }.count)))
                    ])
                }
                say(JSONValue.object([("passed", .bool(report.passed)), ("runs", .array(runsJSON))]).serialized)
            }
            return report.passed
        }
        if !passed { throw ExitCode(1) }
    }
}
