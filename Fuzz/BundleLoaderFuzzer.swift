// libFuzzer target: the bundle loader. Each input is two property lists — the app's
// Info.plist and its extension's, split at the first "\0\0\0\0" (all of it is the extension's
// when there is none) — written into a real bundle on a memory file system and loaded. A
// malformed bundle must be refused with a BundleError naming a file; anything else (a crash,
// a trap, an error of another type) is a finding. Built and run by `make fuzz`.
import Foundation

let fuzzBundle: String = {
    let base = (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()) + "/sandglass-fuzz-\(getpid())"
    let appex = base + "/Fuzz.app/PlugIns/Widget.appex"
    try! FileManager.default.createDirectory(atPath: appex, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
        atPath: appex + "/Widget", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    atexit {
        try? FileManager.default.removeItem(
            atPath: (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
                + "/sandglass-fuzz-\(getpid())")
    }
    return base + "/Fuzz.app"
}()

let defaultAppInfo = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.fuzz</string></dict></plist>
    """.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func bundleLoaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    var appInfo = defaultAppInfo
    var extensionInfo = bytes
    if let split = bytes.firstRange(of: Data([0, 0, 0, 0])) {
        appInfo = bytes[bytes.startIndex..<split.lowerBound]
        extensionInfo = bytes[split.upperBound...]
    }
    try! appInfo.write(to: URL(fileURLWithPath: fuzzBundle + "/Info.plist"))
    try! extensionInfo.write(to: URL(fileURLWithPath: fuzzBundle + "/PlugIns/Widget.appex/Info.plist"))
    do {
        let app = try BundleLoader.load(fuzzBundle)
        precondition(!app.extensions.isEmpty, "a loaded app has at least one extension")
    } catch {
        precondition(error.file.hasPrefix("Fuzz.app"), "the error names no file of the bundle: \(error)")
        precondition(!error.description.isEmpty, "an empty error")
    }
    return 0
}
