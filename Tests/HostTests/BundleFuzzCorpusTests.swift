import Foundation
import SandglassHost
import Testing

/// Every input kept in Fuzz/corpus/bundle (two Info.plists split at "\0\0\0\0", as the fuzz
/// target reads them) loads or is refused with a BundleError naming a file of the bundle.
@Suite("Fuzz corpus: bundle loader")
struct BundleFuzzCorpusTests {
    static var corpus: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/bundle").path
    }

    @Test("the corpus loads or is refused with the file named; the example plists load")
    func wholeCorpus() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-corpus-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let app = base + "/Fuzz.app"
        try FileManager.default.createDirectory(atPath: app + "/PlugIns/Widget.appex", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: app + "/PlugIns/Widget.appex/Widget", contents: Data("#!/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(names.count >= 10)
        var loaded = 0
        for name in names {
            let input = try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name))
            var appInfo = Data(
                "<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.fuzz</string></dict></plist>".utf8)
            var extensionInfo = input
            if let split = input.firstRange(of: Data([0, 0, 0, 0])) {
                appInfo = input[input.startIndex..<split.lowerBound]
                extensionInfo = input[split.upperBound...]
            }
            try appInfo.write(to: URL(fileURLWithPath: app + "/Info.plist"))
            try extensionInfo.write(to: URL(fileURLWithPath: app + "/PlugIns/Widget.appex/Info.plist"))
            do {
                let bundle = try BundleLoader.load(app)
                #expect(!bundle.extensions.isEmpty)
                loaded += 1
            } catch {
                #expect(error.file.hasPrefix("Fuzz.app"), "\(name): \(error)")
            }
        }
        #expect(loaded >= 10, "the example bundles' plists load")
    }
}
