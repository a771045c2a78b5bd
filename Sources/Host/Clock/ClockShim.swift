import Foundation

/// Finds `libsandglass-clock.so`, the LD_PRELOAD shim that makes an extension's `Date()` follow
/// the virtual clock, and places a copy in the host's data directory (where the extension's
/// user can read it, as it can the bundle store).
///
/// Looked for, in order: ``HostConfiguration/clockShimPath``, the `SANDGLASS_CLOCK_SHIM`
/// environment variable, the directory of the running executable (`make` builds it into
/// SwiftPM's bin directory, next to `sandglass` and the test bundle). When none has it and the
/// shim's source is on this machine (a checkout, or a package that depends on Sandglass by
/// path), it is compiled with `cc` (or `clang`) into the data directory.
enum ClockShim {
    /// The library's file name.
    static let fileName = "libsandglass-clock.so"

    /// The source, as seen from this file when it was compiled.
    static var sourcePath: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ClockShim/sandglass_clock.c").path
    }

    /// The shim's path inside `runtimeDirectory` (copied or compiled there), or an error saying
    /// where it was looked for and how to build it.
    static func install(configured: String?, into runtimeDirectory: String) throws -> String {
        let fm = FileManager.default
        let destination = runtimeDirectory + "/" + fileName
        var looked: [String] = []
        var candidates: [String] = []
        if let configured { candidates.append(configured) }
        if let env = ProcessInfo.processInfo.environment["SANDGLASS_CLOCK_SHIM"], !env.isEmpty { candidates.append(env) }
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(fileName).path)
        }
        for candidate in candidates {
            looked.append(candidate)
            guard fm.fileExists(atPath: candidate) else { continue }
            try? fm.removeItem(atPath: destination)
            try fm.copyItem(atPath: candidate, toPath: destination)
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination)
            return destination
        }
        if fm.fileExists(atPath: sourcePath),
            let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/usr/bin/gcc"].first(where: fm.isExecutableFile)
        {
            let include = URL(fileURLWithPath: sourcePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("CSandbox/include").path
            let compiled = try ChildProcess.run(
                compiler, ["-shared", "-fPIC", "-O2", "-I", include, "-o", destination, sourcePath, "-ldl"],
                environment: ProcessInfo.processInfo.environment)
            if compiled.termination == .exited(0) {
                try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination)
                return destination
            }
            looked.append("\(compiler) \(sourcePath) (\(compiled.termination))")
        }
        throw HostSetupError(
            description: """
                the virtual clock needs \(fileName), so that extensions' Date() follows it; not found \
                (looked in: \(looked.joined(separator: ", "))). Build it with `make` (it goes next to the \
                sandglass executable), or set SANDGLASS_CLOCK_SHIM to its path.
                """)
    }
}
