import Foundation
import SandglassHost
import Testing

/// `kubernetes-validate` (PyPI), which checks manifests against Kubernetes' own OpenAPI schemas,
/// offline: `.ci/run` installs it with pip when missing.
enum KubernetesValidate {
    /// How to run it: the console script on PATH, else the module through python3; nil when
    /// neither is installed.
    static let command: [String]? = {
        let directories = (testEnvironment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        if let directory = directories.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/kubernetes-validate") }) {
            return ["\(directory)/kubernetes-validate"]
        }
        guard let python = directories.map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile),
            (try? run([python, "-c", "import kubernetes_validate"]).status) == 0
        else { return nil }
        return [python, "-m", "kubernetes_validate"]
    }()

    /// `.ci/run` sets SANDGLASS_REQUIRE_KUBERNETES_VALIDATE=1 once it has installed the package:
    /// then its absence fails the test instead of skipping it.
    static var isRequired: Bool {
        testEnvironment["SANDGLASS_REQUIRE_KUBERNETES_VALIDATE"] == "1"
    }

    static let skipReason: Comment =
        "kubernetes-validate is not installed (pip install kubernetes-validate; .ci/run installs it): the manifests are not checked against Kubernetes' schemas"

    /// Validates `files` strictly (unknown fields are errors) against Kubernetes `version`, the
    /// package's newest when nil. Exit status 0 when every resource passed; the output names
    /// each resource and, for a failure, the field.
    static func validate(_ files: [String], version: String? = nil) throws -> (status: Int32, output: String) {
        guard let command else { throw Subprocess.Failure("\(skipReason)") }
        return try run(command + ["--strict"] + (version.map { ["-k", $0] } ?? []) + files)
    }

    private static func run(_ command: [String]) throws -> (status: Int32, output: String) {
        let outcome = try ChildProcess.run(command[0], Array(command.dropFirst()), environment: testEnvironment)
        return (outcome.termination.status, String(decoding: outcome.output + outcome.error, as: UTF8.self))
    }
}
