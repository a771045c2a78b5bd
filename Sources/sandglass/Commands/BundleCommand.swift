import ArgumentParser
import Foundation
import SandglassHost

/// `sandglass bundle`: assembles an app bundle in Apple's layout.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Assemble an .app bundle from a built extension executable and Info.plist files.",
        discussion: """
            Two ways:
              sandglass bundle --executable .build/release/LeaderboardWidget --info Widget-Info.plist \\
                               --app-info App-Info.plist -o Leaderboard.app
              sandglass bundle --template Examples/Bundles/Leaderboard.app --executables Examples/.build/release \\
                               -o .build/examples/Leaderboard.app
            The result is validated as `sandglass run` would: a malformed bundle is refused with the file and key named.
            """
    )

    @Option(help: "The extension's built executable.")
    var executable: String?

    @Option(help: "The extension's Info.plist (CFBundleIdentifier, CFBundleExecutable, NSExtension…).")
    var info: String?

    @Option(help: "The containing app's Info.plist (generated when omitted).")
    var appInfo: String?

    @Option(help: "The extension's entitlements file (com.apple.security.application-groups), copied into the .appex.")
    var entitlements: String?

    @Option(help: "An app bundle template: Apple's layout with Info.plist files and no executables.")
    var template: String?

    @Option(help: "With --template: the directory holding the executables its extensions name.")
    var executables: String?

    @Option(name: .shortAndLong, help: "The .app to write.")
    var output: String

    func run() async throws {
        try await reportingBadInput {
            let app: AppBundle
            do {
                if let template {
                    guard let executables else { throw BadInput("--template needs --executables DIR") }
                    app = try BundleTemplate.fill(template: template, executables: executables, output: output)
                } else {
                    guard let executable, let info else {
                        throw BadInput("give --executable and --info (or --template and --executables)")
                    }
                    app = try BundleAssembler.assemble(
                        executable: executable, extensionInfo: info, appInfo: appInfo,
                        entitlements: entitlements, output: output)
                }
            } catch let error as BundleError {
                throw BadInput("\(error)")
            }
            let names = app.extensions.map { "\($0.bundleIdentifier) (\($0.executableName))" }.joined(separator: ", ")
            print("assembled \(output): \(app.bundleIdentifier) with \(names)")
        }
    }
}
