import Foundation
import SandglassHost
import SandglassReport
import Testing

/// The Kubernetes indexed Job in deploy/: each pod's JOB_COMPLETION_INDEX becomes its --shard,
/// the shard count matches the Job's completions, each shard writes its own log, and the documentation
/// shows how to run it and merge the logs.
@Suite("Campaign manifest")
struct CampaignManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("deploy/campaign-job.yaml is an indexed Job whose pods each run one shard")
    func indexedJob() async throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("deploy/campaign-job.yaml"), encoding: .utf8)
        let job = try MiniYAML.parse(text)
        #expect(job["apiVersion"]?.string == "batch/v1")
        #expect(job["kind"]?.string == "Job")
        let spec = try #require(job["spec"])
        #expect(spec["completionMode"]?.string == "Indexed")
        let completions = try #require(spec["completions"]?.int)
        let parallelism = try #require(spec["parallelism"]?.int)
        #expect(completions > 1)
        #expect((1...completions).contains(parallelism))
        let podSpec = try #require(spec["template"]?["spec"])
        #expect(podSpec["restartPolicy"]?.string == "Never")
        let container = try #require(podSpec["containers"]?.list?.first)
        #expect(container["command"]?.strings == ["sandglass"])
        let args = try #require(container["args"]?.strings)
        #expect(args.first == "stress")
        #expect(args.firstIndex(of: "--deny-connect").map { args[$0 + 1] } == "private", "the campaign keeps off the cluster's network")

        let shardValue = try #require(args.firstIndex(of: "--shard").map { args[$0 + 1] })
        #expect(shardValue == "$(JOB_COMPLETION_INDEX)/\(completions)", "the shard count is the Job's completions")
        let logValue = try #require(args.firstIndex(of: "--log").map { args[$0 + 1] })
        #expect(logValue.contains("$(JOB_COMPLETION_INDEX)"), "each shard writes its own log")

        // What each pod runs once Kubernetes has expanded $(JOB_COMPLETION_INDEX): the shards
        // parse, are all different, and cover the campaign.
        var logs: Set<String> = []
        var shards: [Shard] = []
        for index in 0..<completions {
            let expanded = args.map { $0.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: String(index)) }
            shards.append(try Shard(parsing: expanded[expanded.firstIndex(of: "--shard")! + 1]))
            logs.insert(expanded[expanded.firstIndex(of: "--log")! + 1])
        }
        #expect(shards.map(\.index) == Array(0..<completions))
        #expect(logs.count == completions)
        let iterations = try #require(args.firstIndex(of: "--iterations").flatMap { Int(args[$0 + 1]) })
        #expect(shards.map { $0.share(of: iterations) }.reduce(0, +) == iterations)

        let mount = try #require(container["volumeMounts"]?.list?.first?["mountPath"]?.string)
        #expect(logValue.hasPrefix(mount + "/"), "the logs land on the shared volume")
    }

    @Test("bench --shard takes its share of the samples and says which shard it was")
    func benchShard() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("shard.json").path
        let result = try await CommandLineTests.run([
            "bench", "--quick", "--only", "spawn", "--shard", "3/4", "--quiet", "--json", json,
            "--examples", Examples.directory
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("shard 3/4"))
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(figures["shard"] as? String == "3/4")
        let spawn = try #require(figures["spawn"] as? [String: Any])
        #expect(
            spawn["samples"] as? Int == (try Shard(parsing: "3/4")).share(of: 100), "a quarter of the quick run's 100 launches: \(spawn)")
        let bad = try await CommandLineTests.run(["bench", "--shard", "4/4"])
        #expect(bad.status == 2)
    }

    @Test("the campaign's page shows it: apply the manifest, then merge the shards' logs into one report")
    func readme() async throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("Documentation/SeeingARun.md"), encoding: .utf8)
        #expect(readme.contains("deploy/campaign-job.yaml"))
        #expect(readme.contains("JOB_COMPLETION_INDEX"))
        #expect(readme.contains("sandglass report"))
    }

    @Test("the YAML reader reads what it claims and refuses the rest")
    func miniYAML() async throws {
        let node = try MiniYAML.parse(
            """
            a: 1   # comment
            b:
              - "x # not a comment"
              - y
            c:
              - name: n
                args: ["p", 'q']
              - name: m
            d: "quoted: colon"
            """)
        #expect(node["a"]?.int == 1)
        #expect(node["b"]?.strings == ["x # not a comment", "y"])
        #expect(node["c"]?.list?.first?["args"]?.strings == ["p", "q"])
        #expect(node["c"]?.list?.last?["name"]?.string == "m")
        #expect(node["d"]?.string == "quoted: colon")
        #expect(throws: MiniYAML.Error.self) { try MiniYAML.parse("a: |\n  text\n") }
    }
}
