import Foundation
import SandglassHost
import SandglassIPC

/// What rendering a widget's views costs, per entry, beside the timeline round trip it is part
/// of: the Leaderboard widget (six entries, a systemMedium view of stacks, texts, a symbol and a
/// `ForEach`) asked for its timeline on a warm process, round after round. Per entry: the view
/// evaluated and laid out in the extension (as the SDK timed it, both appearances), and the tree
/// encoded in the protocol's binary form; baseline: the whole timeline activation (request →
/// reply decoded: provider, views of all six entries, the frame and its decoding).
enum RenderFigures {
    static let widget = "Leaderboard"

    static func measure(_ bench: BenchContext) async throws -> [FigureRow] {
        var configuration = HostConfiguration.temporary()
        configuration.budgetOverrides.idle = .seconds(600)
        configuration.schedulesWidgets = false
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        try await host.install(bench.examples + "/Leaderboard.app")
        await host.start()
        var evaluation = Distribution(), encoding = Distribution(), roundTrip = Distribution()
        var sizes: [Int] = []
        let rounds = bench.samples(quick: 60, full: 300)
        bench.progress("render", 0)
        for round in 0..<(rounds + 3) {
            let started = DispatchTime.now().uptimeNanoseconds
            let outcome = await host.activate("com.example.leaderboard.widget", .timeline, widget: widget, family: "systemMedium")
            let elapsed = DispatchTime.now().uptimeNanoseconds - started
            guard case .timeline(let timeline)? = outcome else {
                throw BadInput("the Leaderboard timeline did not arrive: \(outcome.map { "\($0)" } ?? "not installed")")
            }
            guard round >= 3 else { continue }
            roundTrip.record(elapsed)
            for entry in timeline.entries {
                guard let view = entry.view else { continue }
                evaluation.record(view.nanoseconds)
                let t0 = DispatchTime.now().uptimeNanoseconds
                let bytes = ViewTreeCodec.bytes(of: view.light)
                encoding.record(DispatchTime.now().uptimeNanoseconds - t0)
                sizes.append(bytes.count)
            }
            if round % 10 == 0 { bench.progress("render", Double(round) / Double(rounds)) }
        }
        await host.shutdown()
        let bytes = sizes.isEmpty ? 0 : sizes.reduce(0, +) / sizes.count
        var rows = [
            FigureRow(
                key: "render.evaluate", name: "view of an entry: evaluate + lay out (in the extension)", distribution: evaluation,
                baselineName: "timeline round trip, 6 entries", baseline: roundTrip, target: nil),
            FigureRow(
                key: "render.encode", name: "view of an entry: encode the tree", distribution: encoding,
                baselineName: "timeline round trip, 6 entries", baseline: roundTrip, target: nil)
        ]
        rows[1].notes.append("A Leaderboard entry's tree is \(bytes) bytes on the wire (systemMedium).")
        return rows
    }
}
