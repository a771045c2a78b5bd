import Foundation
import Testing

/// `sandglass bench`: the output is well formed and has the keys scripts read. No figure is
/// judged here — benchmarks are not tests, and this machine is shared.
@Suite("Bench command")
struct BenchCommandTests {
    @Test("bench --smoke --json writes every figure's key; --html writes a self-contained page with plots")
    func smokeJSON() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("figures.json").path
        let html = dir.appendingPathComponent("figures.html").path
        let result = try await CommandLineTests.run([
            "bench", "--smoke", "--density", "20", "--examples", Examples.directory,
            "--json", json, "--html", html, "--quiet"
        ])
        #expect(result.status == 0, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        for key in ["spawn.ratio", "ipc.ratio", "kill.p99_ms", "backgroundEvent.coldRatio", "week.speedup"] {
            #expect(object[key] is Double, "\(key) is a number")
        }
        #expect(object["density.live"] is Int, "density.live is a count")
        // The same figures nested.
        let spawn = try #require(object["spawn"] as? [String: Any])
        #expect(spawn["p50_us"] is Double && spawn["p99_us"] is Double && spawn["max_us"] is Double)
        #expect((spawn["baseline"] as? [String: Any])?["p50_us"] is Double)
        #expect((object["backgroundEvent"] as? [String: Any])?["coldRatio"] is Double)
        #expect((object["density"] as? [String: Any])?["live"] is Int)
        #expect((object["kill"] as? [String: Any])?["p99_ms"] is Double)
        let throughput = try #require(object["throughput"] as? [String: Any])
        // --smoke measures 1 and 10 warm extensions; a full run adds 100.
        for count in ["1", "10"] { #expect((throughput[count] as? [String: Any])?["value"] is Double) }
        for key in ["refresh", "week"] { #expect(object[key] is [String: Any], "\(key) is there") }

        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg"))
        #expect(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"), "no script, nothing fetched")
        #expect(result.output.contains("ratio (p50)"), "the terminal table")
    }
}
