import Foundation

/// A figure that is one number (a rate, a count) beside its baseline.
struct ScalarRow {
    let key: String
    let name: String
    let value: Double
    let unit: String
    let baselineName: String
    let baseline: Double?
    let target: String?
    let met: Bool?
    var notes: [String] = []

    var ratio: Double? { baseline.flatMap { $0 > 0 ? value / $0 : nil } }

    var json: [String: Any] {
        var object: [String: Any] = ["name": name, "value": value, "unit": unit, "baselineName": baselineName]
        object["baseline"] = baseline ?? NSNull()
        object["ratio"] = ratio ?? NSNull()
        object["target"] = target ?? NSNull()
        object["met"] = met ?? NSNull()
        if !notes.isEmpty { object["notes"] = notes }
        return object
    }
}
