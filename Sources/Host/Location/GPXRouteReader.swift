import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The GPX form of a route file (see ``RouteFile``).
enum GPXRouteReader {
    static func points(_ data: Data, file: String, spacing: Double) throws(RouteError) -> [Route.Point] {
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        guard parser.parse() else {
            let line = parser.lineNumber
            throw RouteError(
                file: file, place: "line \(line)",
                "is not valid GPX XML: \(parser.parserError.map { "\($0.localizedDescription)" } ?? "parse error")")
        }
        if let problem = collector.problem { throw RouteError(file: file, place: problem.place, problem.message) }
        guard collector.root == "gpx" else {
            throw RouteError(file: file, "is not GPX: its root element is \(collector.root.map { "<\($0)>" } ?? "missing"), not <gpx>")
        }
        let chosen =
            !collector.byElement["trkpt", default: []].isEmpty
            ? "trkpt"
            : !collector.byElement["rtept", default: []].isEmpty ? "rtept" : "wpt"
        var points: [Route.Point] = []
        var firstDate: Double?
        for (index, raw) in collector.byElement[chosen, default: []].enumerated() {
            var offset: Double
            if let time = raw.time {
                guard let date = RouteFile.date(time) else {
                    throw RouteError(file: file, place: "\(chosen) \(index + 1)", "its <time> is not an ISO 8601 date")
                }
                firstDate = firstDate ?? date
                offset = date - firstDate!
            } else {
                offset = points.last.map { $0.offset + spacing } ?? 0
            }
            if let previous = points.last, offset < previous.offset {
                throw RouteError(file: file, place: "\(chosen) \(index + 1)", "goes back in time; list the points in order")
            }
            points.append(Route.Point(offset: offset, coordinate: raw.coordinate))
        }
        return points
    }

    private struct RawPoint {
        var coordinate: GeoCoordinate
        var time: String?
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var byElement: [String: [RawPoint]] = [:]
        var problem: (place: String, message: String)?
        var root: String?
        private var current: (element: String, point: RawPoint)?
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            if root == nil { root = name }
            guard ["trkpt", "rtept", "wpt"].contains(name), problem == nil else { return }
            let count = byElement[name, default: []].count + 1
            guard let latText = attributes["lat"], let lonText = attributes["lon"],
                let lat = Double(latText), let lon = Double(lonText)
            else {
                problem = ("\(name) \(count) (line \(parser.lineNumber))", "needs numeric lat and lon attributes")
                return
            }
            let coordinate = GeoCoordinate(latitude: lat, longitude: lon)
            guard coordinate.isValid else {
                problem = ("\(name) \(count) (line \(parser.lineNumber))", "lat \(lat), lon \(lon) is not a position")
                return
            }
            current = (name, RawPoint(coordinate: coordinate))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "ele", let altitude = Double(value) { current?.point.coordinate.altitude = altitude }
            if name == "time", current != nil { current?.point.time = value }
            if let point = current, point.element == name {
                byElement[name, default: []].append(point.point)
                current = nil
            }
            text = ""
        }
    }
}
