/// The CSV form of a route file (see ``RouteFile``).
enum CSVRouteReader {
    private enum Column { case seconds, latitude, longitude, altitude }

    static func points(_ text: String, file: String, spacing: Double) throws(RouteError) -> [Route.Point] {
        var columns: [Column]?
        var points: [Route.Point] = []
        var firstDate: Double?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "line \(index + 1)"
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if columns == nil {
                if let header = try header(cells, file: file, place: place) {
                    columns = header
                    continue
                }
                switch cells.count {
                case 2: columns = [.latitude, .longitude]
                case 3: columns = [.seconds, .latitude, .longitude]
                case 4: columns = [.seconds, .latitude, .longitude, .altitude]
                default:
                    throw RouteError(
                        file: file, place: place,
                        "has \(cells.count) columns; write latitude,longitude or seconds,latitude,longitude (or name the columns in a header line)"
                    )
                }
            }
            let layout = columns!
            guard cells.count == layout.count else {
                throw RouteError(file: file, place: place, "has \(cells.count) columns where the file has \(layout.count)")
            }
            var lat: Double?, lon: Double?, alt = 0.0, offset: Double?
            for (cell, column) in zip(cells, layout) {
                switch column {
                case .latitude: lat = Double(cell)
                case .longitude: lon = Double(cell)
                case .altitude:
                    guard let value = Double(cell) else {
                        throw RouteError(file: file, place: place, "the altitude column is not a number")
                    }
                    alt = value
                case .seconds:
                    if let value = Double(cell), value.isFinite, value >= 0 {
                        offset = value
                    } else if let date = RouteFile.date(cell) {
                        firstDate = firstDate ?? date
                        offset = date - firstDate!
                    } else {
                        throw RouteError(file: file, place: place, "the time column is neither seconds (≥ 0) nor an ISO 8601 date")
                    }
                }
            }
            guard let lat, let lon else {
                throw RouteError(file: file, place: place, "latitude and longitude must be numbers")
            }
            let coordinate = GeoCoordinate(latitude: lat, longitude: lon, altitude: alt)
            guard coordinate.isValid else {
                throw RouteError(
                    file: file, place: place, "\(lat),\(lon) is not a position: latitude must be within ±90, longitude within ±180")
            }
            let at = offset ?? (points.last.map { $0.offset + spacing } ?? 0)
            if let previous = points.last, at < previous.offset {
                throw RouteError(
                    file: file, place: place, "goes back in time (\(at) s after \(previous.offset) s); list the points in order")
            }
            points.append(Route.Point(offset: at, coordinate: coordinate))
        }
        return points
    }

    /// The columns a header line names, `nil` when the line is data.
    private static func header(_ cells: [String], file: String, place: String) throws(RouteError) -> [Column]? {
        guard cells.contains(where: { Double($0) == nil && RouteFile.date($0) == nil }) else { return nil }
        var columns: [Column] = []
        for (index, cell) in cells.enumerated() {
            switch cell.lowercased() {
            case "seconds", "offset", "time", "t": columns.append(.seconds)
            case "latitude", "lat": columns.append(.latitude)
            case "longitude", "lon", "lng", "long": columns.append(.longitude)
            case "altitude", "alt", "ele", "elevation": columns.append(.altitude)
            default:
                throw RouteError(
                    file: file, place: place, "header column \(index + 1) is not one of seconds, latitude, longitude, altitude")
            }
        }
        guard columns.contains(.latitude), columns.contains(.longitude) else {
            throw RouteError(file: file, place: place, "the header must name a latitude and a longitude column")
        }
        return columns
    }
}
