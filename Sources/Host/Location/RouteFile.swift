import Foundation

/// Reads a route file: GPX (`.gpx`) or CSV (`.csv`, or anything else).
///
/// **GPX**: the `trkpt` points of every track (else `rtept` of routes, else `wpt`), with their
/// `lat`/`lon` attributes, optional `<ele>` and `<time>` (ISO 8601). Offsets are the times since
/// the first point's; points without a time follow the previous one after `spacing`.
///
/// **CSV**: one point per line, `latitude,longitude` or `seconds,latitude,longitude` (seconds
/// since the start of the route), with an optional header line naming the columns among
/// `seconds`/`offset`/`time`, `latitude`/`lat`, `longitude`/`lon`/`lng`, `altitude`/`ele`.
/// `time` may be seconds or an ISO 8601 date. Blank lines and lines starting with `#` are skipped.
/// Points without a time follow the previous one after `spacing`.
public enum RouteFile {
    /// The spacing of points that carry no time: 5 minutes.
    public static let defaultSpacing: Double = 300

    /// The route in the file at `path`.
    public static func load(_ path: String, repeats: Bool = false, spacing: Double = defaultSpacing) throws(RouteError) -> Route {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RouteError(file: path, "cannot be read (\(error.localizedDescription)); pass a GPX or CSV file")
        }
        let points =
            path.lowercased().hasSuffix(".gpx")
            ? try GPXRouteReader.points(data, file: path, spacing: spacing)
            : try CSVRouteReader.points(String(decoding: data, as: UTF8.self), file: path, spacing: spacing)
        guard !points.isEmpty else {
            throw RouteError(
                file: path, "holds no points; a route needs at least one (GPX trkpt/rtept/wpt, or CSV lines latitude,longitude)")
        }
        let span = points.map(\.offset).max() ?? 0
        guard span <= maximumSpan else {
            throw RouteError(
                file: path,
                "its points span \(span) s; a route spans at most 100 years (\(Int(maximumSpan)) s) — check the times or the spacing")
        }
        if repeats, span > 0, span < 1 {
            throw RouteError(
                file: path, "repeats, and one pass lasts \(span) s; a repeating route lasts at least a second — check the times")
        }
        return Route(points: points, repeats: repeats, source: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// The longest a route may last, in seconds: 100 years, as far as the run's clock goes.
    public static let maximumSpan = Double(RunClock.farFuture) / 1e9

    /// Seconds since 1970 of an ISO 8601 date (`2026-05-01T08:00:00Z`, fractional seconds allowed).
    static func date(_ text: String) -> Double? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date.timeIntervalSince1970 }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)?.timeIntervalSince1970
    }
}
