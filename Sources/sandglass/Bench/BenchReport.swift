import Foundation
import SandglassHost

/// Everything one bench run measured: the latency figures beside their baselines, the scalar
/// figures, and the explanations — rendered as the terminal table, the JSON and the HTML page.
struct BenchReport {
    let machine: String
    let quick: Bool
    /// The part of the samples this run took (`--shard`), the whole by default.
    var shard = Shard.whole
    let date = Date()
    var rows: [FigureRow] = []
    var scalars: [ScalarRow] = []
    /// Titled paragraphs: where the time goes, how a figure was taken.
    var sections: [(title: String, lines: [String])] = []
    /// Extra JSON objects by key (`density`, `week`, …), merged into the output.
    var extraJSON: [String: Any] = [:]

    func row(_ key: String) -> FigureRow? { rows.first { $0.key == key } }
    func scalar(_ key: String) -> ScalarRow? { scalars.first { $0.key == key } }

    /// The JSON object: each figure nested under its key, plus the flat keys a script reads
    /// (`spawn.ratio`, `ipc.ratio`, `kill.p99_ms`, `backgroundEvent.coldRatio`, `density.live`).
    var json: [String: Any] {
        var object: [String: Any] = [
            "machine": machine, "quick": quick, "shard": shard.description, "date": ISO8601DateFormatter().string(from: date)
        ]
        func nest(_ key: String, _ value: Any) {
            let parts = key.split(separator: ".").map(String.init)
            guard parts.count > 1 else { object[key] = value; return }
            var parent = object[parts[0]] as? [String: Any] ?? [:]
            var inner = parent[parts[1]] as? [String: Any] ?? [:]
            if parts.count > 2 {
                inner[parts[2...].joined(separator: ".")] = value
                parent[parts[1]] = inner
            } else if let value = value as? [String: Any] {
                parent[parts[1]] = inner.merging(value) { _, new in new }
            } else {
                parent[parts[1]] = value
            }
            object[parts[0]] = parent
        }
        for row in rows {
            if row.key.contains(".") {
                nest(row.key, row.json)
            } else {
                object[row.key] = (object[row.key] as? [String: Any] ?? [:]).merging(row.json) { _, new in new }
            }
        }
        for scalar in scalars { nest(scalar.key, scalar.json) }
        for (key, value) in extraJSON {
            if let value = value as? [String: Any], let existing = object[key] as? [String: Any] {
                object[key] = existing.merging(value) { _, new in new }
            } else {
                object[key] = value
            }
        }
        // The flat keys.
        if let spawn = row("spawn") { object["spawn.ratio"] = spawn.ratio; nest("spawn.ratio", spawn.ratio) }
        if let ipc = row("ipc") { object["ipc.ratio"] = ipc.ratio; nest("ipc.ratio", ipc.ratio) }
        if let kill = row("kill") {
            object["kill.p99_ms"] = kill.distribution.p99 / 1000
            nest("kill.p99_ms", kill.distribution.p99 / 1000)
        }
        if let cold = row("backgroundEvent.cold") {
            object["backgroundEvent.coldRatio"] = cold.ratio
            nest("backgroundEvent.coldRatio", cold.ratio)
        }
        if let density = scalar("density.live") {
            object["density.live"] = Int(density.value)
            nest("density.live", Int(density.value))
        }
        if let week = scalar("week.speedup") { object["week.speedup"] = week.value }
        return object
    }

    /// The JSON text, keys sorted.
    func jsonData() throws -> Data {
        try JSONSerialization.data(withJSONObject: sanitized(json), options: [.prettyPrinted, .sortedKeys])
    }

    /// The scalar figures as lines for the terminal.
    var scalarTable: String {
        var lines = [pad("figure", 58) + pad("value", 16) + pad("baseline", 16) + "ratio"]
        for s in scalars {
            let value = formatScalar(s.value, s.unit)
            let base = s.baseline.map { formatScalar($0, s.unit) } ?? "—"
            var tail = s.ratio.map { String(format: "%.3f×", $0) } ?? ""
            if let target = s.target, let met = s.met { tail += "  (\(target): \(met ? "met" : "missed"))" }
            lines.append(pad(s.name, 58) + pad(value, 16) + pad(base, 16) + tail)
            lines.append(pad("  baseline: " + s.baselineName, 58))
        }
        return lines.joined(separator: "\n")
    }
}

/// JSON can hold no NaN or infinity: they become null.
private func sanitized(_ value: Any) -> Any {
    switch value {
    case let d as Double: return d.isFinite ? d : NSNull()
    case let object as [String: Any]: return object.mapValues(sanitized)
    case let array as [Any]: return array.map(sanitized)
    default: return value
    }
}
