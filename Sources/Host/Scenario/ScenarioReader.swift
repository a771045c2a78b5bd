import Foundation
import SandglassIPC

/// Reads a scenario's JSON, naming file and key in every error.
enum ScenarioReader {
    static let topKeys = [
        "description", "app", "duration", "clock", "authorization", "widgetLocation", "visibility",
        "position", "route", "inUseWindow", "significantChangeMeters", "changes", "expect",
        "configurations"
    ]
    static let changeKeys = ["at", "authorization", "widgetLocation", "visibility", "position", "route", "note"]
    static let expectKeys = ["event", "where", "atLeast", "atMost", "from", "until"]

    static func read(_ path: String) throws(ScenarioError) -> Scenario {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScenarioError(file: path, "cannot be read (\(error.localizedDescription))")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ScenarioError(file: file, "is not valid JSON (\(error.localizedDescription))")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let context = Context(file: file, directory: directory)
        guard let object = root as? [String: Any] else { throw ScenarioError(file: file, "must hold a JSON object of scenario keys") }
        try context.checkKeys(object, allowed: topKeys, at: "")

        var scenario = Scenario()
        scenario.path = path
        scenario.description = try context.string(object, "description", at: "") ?? ""
        scenario.app = try context.string(object, "app", at: "")
        scenario.duration = try context.duration(object, "duration", at: "")
        if let clock = try context.string(object, "clock", at: "") {
            switch clock {
            case "real": scenario.clock = .real
            case "virtual": scenario.clock = .virtual
            default: throw ScenarioError(file: file, key: "clock", "is \"\(clock)\"; expected real or virtual")
            }
        }
        if let auth = try context.authorization(object, at: "") { scenario.location.authorization = auth }
        if let approval = try context.approval(object, at: "") { scenario.location.widgetApproval = approval }
        if let visibility = try context.visibility(object, at: "") { scenario.visibility = visibility }
        if let position = try context.position(object, at: "") { scenario.location.position = position }
        if let window = try context.duration(object, "inUseWindow", at: "") { scenario.location.inUseWindow = window }
        if let meters = object["significantChangeMeters"] {
            guard let n = meters as? NSNumber, !isBoolean(meters), n.doubleValue > 0 else {
                throw ScenarioError(file: file, key: "significantChangeMeters", "must be a positive number of metres, e.g. 500")
            }
            scenario.location.significantChangeMeters = n.doubleValue
        }
        if let configurations = object["configurations"] {
            guard let byWidget = configurations as? [String: Any] else {
                throw ScenarioError(
                    file: file, key: "configurations", "must be an object of widget configurations, e.g. {\"Hero\": {\"hero\": \"spider\"}}"
                )
            }
            for (widget, value) in byWidget {
                guard value is [String: Any], let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
                    throw ScenarioError(
                        file: file, key: "configurations.\(widget)",
                        "must be an object of the intent's parameters, e.g. {\"hero\": \"spider\"}")
                }
                scenario.configurations[widget] = String(decoding: data, as: UTF8.self)
            }
        }
        if let changes = object["changes"] {
            guard let list = changes as? [Any] else { throw ScenarioError(file: file, key: "changes", "must be an array of changes") }
            for (index, item) in list.enumerated() {
                let at = "changes[\(index)]"
                guard let change = item as? [String: Any] else {
                    throw ScenarioError(file: file, key: at, "must be an object with at and what changes")
                }
                try context.checkKeys(change, allowed: changeKeys, at: at)
                guard let when = try context.duration(change, "at", at: at) else {
                    throw ScenarioError(file: file, key: "\(at).at", "is missing; say when the change happens, e.g. \"1d\"")
                }
                let parsed = ScenarioChange(
                    at: when, authorization: try context.authorization(change, at: at),
                    widgetApproval: try context.approval(change, at: at), visibility: try context.visibility(change, at: at),
                    position: try context.position(change, at: at), note: try context.string(change, "note", at: at))
                guard parsed.authorization != nil || parsed.widgetApproval != nil || parsed.visibility != nil || parsed.position != nil
                else {
                    throw ScenarioError(
                        file: file, key: at, "changes nothing; give authorization, widgetLocation, visibility, position or route")
                }
                scenario.changes.append(parsed)
            }
            scenario.changes.sort { $0.at < $1.at }
        }
        if let expect = object["expect"] {
            guard let list = expect as? [Any] else { throw ScenarioError(file: file, key: "expect", "must be an array of expectations") }
            for (index, item) in list.enumerated() {
                let at = "expect[\(index)]"
                guard let e = item as? [String: Any] else {
                    throw ScenarioError(file: file, key: at, "must be an object with event and atLeast or atMost")
                }
                try context.checkKeys(e, allowed: expectKeys, at: at)
                guard let event = try context.string(e, "event", at: at), !event.isEmpty else {
                    throw ScenarioError(file: file, key: "\(at).event", "is missing; name the event, e.g. location.delivered")
                }
                var fields: [String: String] = [:]
                if let whereValue = e["where"] {
                    guard let dictionary = whereValue as? [String: Any] else {
                        throw ScenarioError(file: file, key: "\(at).where", "must be an object of field values")
                    }
                    for (key, value) in dictionary {
                        switch value {
                        case let s as String: fields[key] = s
                        case let n as NSNumber: fields[key] = JSONValue(foundation: n).serialized
                        default: throw ScenarioError(file: file, key: "\(at).where.\(key)", "must be a string, number or Boolean")
                        }
                    }
                }
                let expectation = ScenarioExpectation(
                    event: event, fields: fields, atLeast: try context.count(e, "atLeast", at: at),
                    atMost: try context.count(e, "atMost", at: at),
                    from: try context.duration(e, "from", at: at), until: try context.duration(e, "until", at: at))
                guard expectation.atLeast != nil || expectation.atMost != nil else {
                    throw ScenarioError(file: file, key: at, "needs atLeast or atMost")
                }
                scenario.expectations.append(expectation)
            }
        }
        return scenario
    }

    /// Typed access to a scenario's values, naming file and key in errors.
    struct Context {
        let file: String
        let directory: String

        private func key(_ at: String, _ name: String) -> String { at.isEmpty ? name : "\(at).\(name)" }

        func checkKeys(_ object: [String: Any], allowed: [String], at: String) throws(ScenarioError) {
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw ScenarioError(
                    file: file, key: key(at, unknown), "is not a scenario key here; the keys are \(allowed.joined(separator: ", "))")
            }
        }

        func string(_ object: [String: Any], _ name: String, at: String) throws(ScenarioError) -> String? {
            guard let value = object[name] else { return nil }
            guard let s = value as? String else { throw ScenarioError(file: file, key: key(at, name), "must be a string") }
            return s
        }

        func duration(_ object: [String: Any], _ name: String, at: String) throws(ScenarioError) -> Duration? {
            guard let text = try string(object, name, at: at) else { return nil }
            guard let d = DurationText.parse(text) else {
                throw ScenarioError(
                    file: file, key: key(at, name), "is \"\(text)\"; \(DurationText.problem(with: text) ?? "not a duration")")
            }
            return d
        }

        func count(_ object: [String: Any], _ name: String, at: String) throws(ScenarioError) -> Int? {
            guard let value = object[name] else { return nil }
            guard let n = value as? NSNumber, !isBoolean(value), n.doubleValue >= 0, n.doubleValue == n.doubleValue.rounded() else {
                throw ScenarioError(file: file, key: key(at, name), "must be a whole number ≥ 0")
            }
            return n.intValue
        }

        func authorization(_ object: [String: Any], at: String) throws(ScenarioError) -> LocationAuthorization? {
            guard let text = try string(object, "authorization", at: at) else { return nil }
            guard let value = LocationAuthorization(rawValue: text) else {
                throw ScenarioError(
                    file: file, key: key(at, "authorization"),
                    "is \"\(text)\"; expected one of \(LocationAuthorization.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }

        func approval(_ object: [String: Any], at: String) throws(ScenarioError) -> WidgetLocationApproval? {
            guard let text = try string(object, "widgetLocation", at: at) else { return nil }
            guard let value = WidgetLocationApproval(rawValue: text) else {
                throw ScenarioError(file: file, key: key(at, "widgetLocation"), "is \"\(text)\"; expected extended or declined")
            }
            return value
        }

        func visibility(_ object: [String: Any], at: String) throws(ScenarioError) -> VisibilitySchedule? {
            guard let value = object["visibility"] else { return nil }
            let name = key(at, "visibility")
            if let text = value as? String {
                guard let schedule = VisibilitySchedule(name: text) else {
                    throw ScenarioError(
                        file: file, key: name,
                        "is \"\(text)\"; expected \(VisibilitySchedule.names.joined(separator: ", ")) or {\"every\": \"1h\", \"for\": \"1m\"}"
                    )
                }
                return schedule
            }
            guard let object = value as? [String: Any] else {
                throw ScenarioError(file: file, key: name, "must be a schedule name or {\"every\": …, \"for\": …}")
            }
            try checkKeys(object, allowed: ["every", "for"], at: name)
            guard let every = try duration(object, "every", at: name), let shown = try duration(object, "for", at: name),
                every > .zero, shown > .zero, shown < every
            else {
                throw ScenarioError(
                    file: file, key: name, "needs every and for, with 0 < for < every (e.g. {\"every\": \"1h\", \"for\": \"1m\"})")
            }
            return .periodic(every: every, for: shown)
        }

        func position(_ object: [String: Any], at: String) throws(ScenarioError) -> PositionSource? {
            if object["position"] != nil && object["route"] != nil {
                throw ScenarioError(file: file, key: key(at, "route"), "and position are both given; give one")
            }
            if let value = object["position"] {
                let name = key(at, "position")
                if let text = value as? String {
                    guard let point = GeoCoordinate(text: text) else {
                        throw ScenarioError(file: file, key: name, "is \"\(text)\"; write LAT,LON in degrees, e.g. \"37.3349,-122.0090\"")
                    }
                    return .fixed(point)
                }
                guard let dictionary = value as? [String: Any] else {
                    throw ScenarioError(file: file, key: name, "must be \"LAT,LON\" or {\"latitude\": …, \"longitude\": …}")
                }
                try checkKeys(dictionary, allowed: ["latitude", "longitude", "altitude"], at: name)
                guard let lat = (dictionary["latitude"] as? NSNumber)?.doubleValue,
                    let lon = (dictionary["longitude"] as? NSNumber)?.doubleValue
                else {
                    throw ScenarioError(file: file, key: name, "needs numeric latitude and longitude")
                }
                let point = GeoCoordinate(latitude: lat, longitude: lon, altitude: (dictionary["altitude"] as? NSNumber)?.doubleValue ?? 0)
                guard point.isValid else {
                    throw ScenarioError(file: file, key: name, "is not a position: latitude within ±90, longitude within ±180")
                }
                return .fixed(point)
            }
            guard let value = object["route"] else { return nil }
            let name = key(at, "route")
            var routeFile: String
            var repeats = false
            var spacing = RouteFile.defaultSpacing
            if let text = value as? String {
                routeFile = text
            } else if let dictionary = value as? [String: Any] {
                try checkKeys(dictionary, allowed: ["file", "repeat", "spacing"], at: name)
                guard let text = dictionary["file"] as? String else {
                    throw ScenarioError(file: file, key: "\(name).file", "is missing; name a GPX or CSV file")
                }
                routeFile = text
                if let r = dictionary["repeat"] {
                    guard isBoolean(r), let b = r as? Bool else {
                        throw ScenarioError(file: file, key: "\(name).repeat", "must be true or false")
                    }
                    repeats = b
                }
                if let s = try duration(dictionary, "spacing", at: name) { spacing = s.milliseconds / 1000 }
            } else {
                throw ScenarioError(file: file, key: name, "must be a file name or {\"file\": …, \"repeat\": true}")
            }
            if !routeFile.hasPrefix("/") { routeFile = directory + "/" + routeFile }
            do {
                return .route(try RouteFile.load(routeFile, repeats: repeats, spacing: spacing))
            } catch {
                throw ScenarioError(file: file, key: name, "names a route that cannot be used: \(error)")
            }
        }
    }
}

/// Whether a JSONSerialization value is `true` or `false` (on Linux every NSNumber casts to Bool,
/// so the number's type decides).
func isBoolean(_ value: Any) -> Bool {
    if let number = value as? NSNumber { return String(cString: number.objCType) == "c" }
    return value is Bool
}
