import Foundation
import Testing

@testable import SandglassHost

/// Positions from route files, GPX and CSV, and the errors that name the file and the line.
@Suite("Route files")
struct RouteFileTests {
    private func file(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func cleanUp(_ path: String) {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    @Test("CSV with a header: seconds, latitude, longitude; positions in between are interpolated")
    func csvWithHeader() throws {
        let path = try file("r.csv", "# a comment\nseconds,lat,lon\n0,10,20\n\n100,11,21\n")
        defer { cleanUp(path) }
        let route = try RouteFile.load(path)
        #expect(route.points.map(\.offset) == [0, 100])
        let middle = route.position(at: 50)
        #expect(abs(middle.latitude - 10.5) < 1e-9 && abs(middle.longitude - 20.5) < 1e-9)
        #expect(route.position(at: -5) == route.points[0].coordinate)
        #expect(route.position(at: 500) == route.points[1].coordinate)
        #expect(route.nextPointTime(after: 0) == 100)
        #expect(route.nextPointTime(after: 100) == nil)
    }

    @Test("CSV without times: points follow each other by the spacing; a repeating route starts over")
    func csvWithoutTimes() throws {
        let path = try file("r.csv", "1,2\n3,4\n5,6\n")
        defer { cleanUp(path) }
        let route = try RouteFile.load(path, repeats: true, spacing: 60)
        #expect(route.points.map(\.offset) == [0, 60, 120])
        #expect(route.position(at: 120 + 60).latitude == 3)
        #expect(route.nextPointTime(after: 130) == 180)
    }

    @Test("GPX track points with times (ISO 8601) and elevations")
    func gpx() throws {
        let path = try file(
            "r.gpx",
            """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="37.3688" lon="-122.0363"><ele>30</ele><time>2026-05-04T08:00:00Z</time></trkpt>
            <trkpt lat="37.3349" lon="-122.0090"><ele>40</ele><time>2026-05-04T08:30:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        defer { cleanUp(path) }
        let route = try RouteFile.load(path)
        #expect(route.points.map(\.offset) == [0, 1800])
        #expect(route.points[1].coordinate == GeoCoordinate(latitude: 37.3349, longitude: -122.0090, altitude: 40))
        let meters = route.points[0].coordinate.distance(to: route.points[1].coordinate)
        #expect(meters > 4_000 && meters < 5_000)
    }

    @Test("the shipped commute routes agree: GPX and CSV give the same points")
    func shippedRoutes() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/Scenarios/routes").path
        let csv = try RouteFile.load(dir + "/commute.csv"), gpx = try RouteFile.load(dir + "/commute.gpx")
        #expect(csv.points.map(\.offset) == gpx.points.map(\.offset))
        #expect(zip(csv.points, gpx.points).allSatisfy { $0.coordinate.distance(to: $1.coordinate) < 0.01 })
        #expect(csv.period == 86_400)
    }

    @Test("errors name the file and the line or point")
    func errors() throws {
        let cases: [(String, String, String)] = [
            ("bad.csv", "0,10,20\n100,x,21\n", "bad.csv, line 2: latitude and longitude must be numbers"),
            ("back.csv", "100,10,20\n50,11,21\n", "back.csv, line 2: goes back in time"),
            ("cols.csv", "1,2,3,4,5\n", "cols.csv, line 1: has 5 columns"),
            ("far.csv", "95,10\n", "far.csv, line 1: 95.0,10.0 is not a position"),
            ("head.csv", "when,lat,lon\n", "head.csv, line 1: header column 1 is not one of"),
            ("empty.csv", "# nothing\n", "empty.csv: holds no points"),
            (
                "bad.gpx", "<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>",
                "bad.gpx, trkpt 1 (line 1): needs numeric lat and lon"
            ),
            ("kml.gpx", "<kml><Placemark/></kml>", "kml.gpx: is not GPX: its root element is <kml>, not <gpx>"),
            // Times no clock reaches: the host's timers count nanoseconds from the run's start.
            ("far-time.csv", "0,10,20\n1e300,11,21\n", "far-time.csv: its points span 1e+300 s"),
            (
                "far-time.gpx",
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>2026-01-01T00:00:00Z</time></trkpt><trkpt lat=\"2\" lon=\"1\"><time>2900-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
                "far-time.gpx: its points span"
            )
        ]
        for (name, text, expected) in cases {
            let path = try file(name, text)
            defer { cleanUp(path) }
            do {
                _ = try RouteFile.load(path)
                Issue.record("\(name) was accepted")
            } catch {
                let shown = "\(error)".replacingOccurrences(of: URL(fileURLWithPath: path).deletingLastPathComponent().path + "/", with: "")
                #expect(shown.contains(expected), "\(shown)")
            }
        }
        #expect(throws: RouteError.self) { try RouteFile.load("/nonexistent/route.gpx") }
        // A repeating route shorter than a second would move the device without end at one instant.
        let blink = try file("blink.csv", "0,10,20\n0.0000001,11,21\n")
        defer { cleanUp(blink) }
        #expect(throws: RouteError.self) { try RouteFile.load(blink, repeats: true) }
        #expect(try RouteFile.load(blink).points.count == 2, "once through, it is only two points")
    }

    @Test("positions on the command line: LAT,LON within range")
    func coordinates() {
        #expect(GeoCoordinate(text: "52.52,13.405") == GeoCoordinate(latitude: 52.52, longitude: 13.405))
        #expect(GeoCoordinate(text: " 37.3349 , -122.0090 ") == GeoCoordinate(latitude: 37.3349, longitude: -122.009))
        for bad in ["52.52", "91,0", "0,181", "a,b", "1,2,3", ""] { #expect(GeoCoordinate(text: bad) == nil, "\(bad)") }
        let berlin = GeoCoordinate(latitude: 52.52, longitude: 13.405), paris = GeoCoordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(abs(berlin.distance(to: paris) - 877_500) < 2_000)
    }
}
