import Foundation
import Glibc
import Testing

/// deploy/: the campaign's image recipe, its volume claim and the pod's securityContext, checked
/// as far as this machine can check them — the manifests against Kubernetes' own schemas, the
/// Containerfile's structure (no image is built: there is no container engine here), and the
/// host run with exactly the capabilities the Job grants.
@Suite("Deploy")
struct DeployTests {
    static func path(_ name: String) -> String { CampaignManifestTests.root.appendingPathComponent(name).path }
    static func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
    static func job() throws -> MiniYAML.Node { try MiniYAML.parse(text("deploy/campaign-job.yaml")) }

    /// The Job's (only) container.
    static func container() throws -> MiniYAML.Node {
        try #require(try job()["spec"]?["template"]?["spec"]?["containers"]?.list?.first)
    }

    @Test(
        "the manifests are valid Kubernetes objects, strictly (no unknown field), for the newest Kubernetes and for 1.30",
        .enabled(if: KubernetesValidate.command != nil || KubernetesValidate.isRequired, KubernetesValidate.skipReason))
    func schemas() async throws {
        let files = [Self.path("deploy/campaign-job.yaml"), Self.path("deploy/results-pvc.yaml")]
        for version in [nil, "1.30"] {
            let (status, output) = try await offThePool { try KubernetesValidate.validate(files, version: version) }
            #expect(status == 0, "\(output)")
            #expect(output.contains("job/sandglass-campaign") && output.contains("persistentvolumeclaim/sandglass-results"), "\(output)")
        }
        // The validator refuses what the API server would: a misspelt field of the Job.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-job-\(UUID().uuidString.prefix(8)).yaml").path
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let job = try Self.text("deploy/campaign-job.yaml")
        try #require(job.contains("allowPrivilegeEscalation:"))
        try job.replacingOccurrences(of: "allowPrivilegeEscalation:", with: "allowPrivilegeEscalations:")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let (status, output) = try await offThePool { try KubernetesValidate.validate([broken]) }
        #expect(status != 0 && output.contains("allowPrivilegeEscalations"), "\(output)")
    }

    @Test("the volume claim the Job names is in deploy/, ReadWriteMany: every shard writes to it at once")
    func claim() throws {
        let claim = try MiniYAML.parse(Self.text("deploy/results-pvc.yaml"))
        let volumes = try Self.job()["spec"]?["template"]?["spec"]?["volumes"]?.list ?? []
        let named = volumes.compactMap { $0["persistentVolumeClaim"]?["claimName"]?.string }
        #expect(claim["kind"]?.string == "PersistentVolumeClaim")
        #expect(named == [claim["metadata"]?["name"]?.string ?? "?"], "the Job names \(named)")
        #expect(claim["spec"]?["accessModes"]?.strings == ["ReadWriteMany"])
    }

    @Test("the pod runs the host as root with the six capabilities deploy/README.md explains, no privilege escalation, seccomp Unconfined")
    func securityContext() throws {
        let context = try #require(try Self.container()["securityContext"])
        #expect(context["runAsUser"]?.string == "0")
        #expect(context["privileged"]?.string == "false")
        #expect(context["allowPrivilegeEscalation"]?.string == "false")
        #expect(context["capabilities"]?["drop"]?.strings == ["ALL"])
        let added = context["capabilities"]?["add"]?.strings ?? []
        #expect(Set(added) == ["CHOWN", "DAC_OVERRIDE", "FOWNER", "SETUID", "SETGID", "KILL"])
        #expect(context["seccompProfile"]?["type"]?.string == "Unconfined")
        let readme = try Self.text("deploy/README.md")
        for capability in added {
            #expect(readme.contains("`\(capability)`"), "deploy/README.md says what \(capability) is for")
        }
        #expect(readme.contains("Unconfined") && readme.contains("watchdog") && readme.contains("Landlock"))
    }

    /// setpriv (util-linux), which runs a command with a given capability bounding set.
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: FileManager.default.isExecutableFile)

    @Test(
        "with only the Job's capabilities and no_new_privs, the host runs extensions under uids of their own and starts again on its data directory; one fewer (FOWNER, KILL) and it refuses to start, naming it",
        .enabled(if: getuid() == 0 && setpriv != nil, "needs root and setpriv (util-linux) to run the host with a reduced capability set"))
    func capabilitiesSuffice() async throws {
        let granted = try Self.container()["securityContext"]?["capabilities"]?["add"]?.strings ?? []
        try #require(!granted.isEmpty)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-caps-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let app = try Examples.app("Leaderboard.app")
        func run(with capabilities: [String]) async throws -> CommandLineTests.Result {
            let bounding = (["-all"] + capabilities.map { "+" + $0.lowercased() }).joined(separator: ",")
            return try await offThePool {
                try CommandLineTests.run(
                    blocking: ["run", app, "--data-directory", data, "--duration", "2s", "--quiet", "--json"],
                    under: [Self.setpriv!, "--bounding-set", bounding, "--inh-caps=-all", "--no-new-privs"])
            }
        }
        // Twice on one data directory, as each host of a stress run starts on its predecessor's.
        for round in 1...2 {
            let result = try await run(with: granted)
            #expect(result.status == 0, "round \(round): \(result.error)")
            let summary = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            #expect((summary?["spawns"] as? Int ?? 0) >= 1, "round \(round): \(result.output)")
            #expect(((summary?["activations"] as? [String: Any])?["ok"] as? Int ?? 0) >= 1, "round \(round): \(result.output)")
        }
        var owner = stat()
        #expect(stat(data + "/Containers/com.example.leaderboard.widget", &owner) == 0)
        #expect((50_000...59_999).contains(owner.st_uid), "the container belongs to the extension's own uid, not \(owner.st_uid)")
        // One fewer and the host refuses to start, naming it, rather than start extensions it
        // cannot secure (FOWNER) or cannot kill (KILL: it would wait for them forever).
        for missing in ["FOWNER", "KILL"] {
            let fewer = try await run(with: granted.filter { $0 != missing })
            #expect(fewer.status == 1 && fewer.error.contains("lacks CAP_\(missing)"), "\(fewer.status) \(fewer.error)")
        }
    }

    @Test("the Containerfile builds the release host, its clock shim and the apps on the Swift 6.3 images, and installs what the Job runs")
    func containerfile() throws {
        let instructions = try Containerfile.instructions(Self.text("deploy/Containerfile"))
        let froms = instructions.indices.filter { instructions[$0].keyword == "FROM" }
        try #require(froms.count == 2, "a build stage and a runtime stage: \(instructions.map(\.keyword))")
        #expect(instructions[froms[0]].arguments == "swift:6.3 AS build")
        #expect(instructions[froms[1]].arguments == "swift:6.3-slim")
        let build = instructions[froms[0]..<froms[1]], runtime = instructions[froms[1]...]
        let buildRuns = build.filter { $0.keyword == "RUN" }.map(\.arguments).joined(separator: "\n")
        let runtimeRuns = runtime.filter { $0.keyword == "RUN" }.map(\.arguments).joined(separator: "\n")
        for package in ["libseccomp-dev", "libsqlite3-dev", "make"] {
            #expect(buildRuns.contains("apt-get install") && buildRuns.contains(" \(package)"), "the build stage installs \(package)")
        }
        for package in ["libseccomp2", "libsqlite3-0", "libxml2", "tzdata", "ca-certificates"] {
            #expect(runtimeRuns.contains(" \(package)"), "the runtime stage installs \(package)")
        }
        #expect(buildRuns.contains("swift build -c release --product sandglass"))
        #expect(buildRuns.contains("make clock-shim CC=clang"))
        #expect(
            buildRuns.contains("libsandglass-clock.so") && buildRuns.contains("/out/bin/"),
            "the clock shim goes beside the host, where the host looks for it")
        #expect(buildRuns.contains("cd Examples && swift build -c release --static-swift-stdlib"))
        #expect(buildRuns.contains("sandglass bundle --template"))
        let copies = runtime.filter { $0.keyword == "COPY" }.map(\.arguments)
        #expect(copies.contains("--from=build /out/bin/ /usr/local/bin/"), "sandglass on PATH: \(copies)")
        #expect(copies.contains("--from=build /out/apps/ /apps/"), "\(copies)")
        // What it relies on in the repository: the Makefile's rule takes CC; the build context
        // leaves the build products out.
        let makefile = try Self.text("Makefile")
        #expect(makefile.contains("\nclock-shim:") && makefile.contains("$(CC) -shared"))
        #expect(try Self.text(".dockerignore").split(separator: "\n").contains(".build"))
        // What the Job runs: `sandglass`, on apps the image bundles from Examples/Bundles.
        let container = try Self.container()
        #expect(container["command"]?.strings == ["sandglass"])
        let apps = (container["args"]?.strings ?? []).filter { $0.hasPrefix("/apps/") }
        #expect(!apps.isEmpty)
        for app in apps {
            #expect(
                FileManager.default.fileExists(atPath: Self.path("Examples/Bundles/" + app.dropFirst("/apps/".count))),
                "\(app) is bundled from Examples/Bundles")
        }
    }
}

/// Just enough of a Containerfile to check its structure: its instructions, continuation lines
/// joined, comments dropped.
enum Containerfile {
    struct Instruction {
        let keyword: String
        let arguments: String
    }

    static func instructions(_ text: String) -> [Instruction] {
        var result: [Instruction] = []
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || (line.isEmpty && pending.isEmpty) { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast().trimmingCharacters(in: .whitespaces) + " "
                continue
            }
            let whole = (pending + line).trimmingCharacters(in: .whitespaces)
            pending = ""
            guard !whole.isEmpty else { continue }
            let parts = whole.split(separator: " ", maxSplits: 1)
            result.append(Instruction(keyword: String(parts[0]).uppercased(), arguments: parts.count > 1 ? String(parts[1]) : ""))
        }
        return result
    }
}
