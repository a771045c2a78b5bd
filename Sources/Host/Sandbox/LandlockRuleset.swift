import CSandbox
import Foundation
import Glibc

/// Landlock on this kernel, and the rulesets built for containers.
enum Landlock {
    /// The ABI version, 0 when the kernel has no Landlock.
    static let abi: Int = Int(sg_landlock_abi())

    /// Directories whose files may be read and executed (the ELF interpreter and libraries live here).
    static let systemExecutablePaths = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/libexec"]

    /// What else a Swift program reads, and may read without learning anything of other apps:
    /// time zones and locales, the files glibc and Foundation open, the random and null
    /// devices, `/proc` (a rule on `/proc/self` would bind to the host's pid; a root host's
    /// extensions see a procfs that shows each only its own processes: ``ExtensionNamespaces``)
    /// and the CPU list glibc counts processors from.
    /// Missing ones are skipped.
    static let systemReadablePaths = [
        "/usr/share/zoneinfo", "/usr/lib/locale",
        "/etc/ld.so.cache", "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts",
        "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/timezone",
        "/dev/urandom", "/dev/random", "/dev/zero",
        "/proc", "/sys/devices/system/cpu"
    ]

    /// The directory of the Swift runtime the host itself runs on, for extensions linked
    /// dynamically against the toolchain (debug builds, the test probe): where the host's
    /// `swift_retain` comes from, else the toolchain of `swift` on `PATH`. Never taken from a
    /// bundle, whose RUNPATH its author controls. Nil when the runtime is linked statically and
    /// no toolchain is installed.
    static let swiftRuntimeDirectory: String? = {
        var buffer = [CChar](repeating: 0, count: 4096)
        if sg_library_of_symbol("swift_retain", &buffer, UInt(buffer.count)) == 0 {
            let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if name.hasSuffix(".so") || name.contains(".so.") {
                return URL(fileURLWithPath: name).resolvingSymlinksInPath().deletingLastPathComponent().path
            }
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift").resolvingSymlinksInPath()
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let runtime = swift.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/linux").path
            if FileManager.default.fileExists(atPath: runtime + "/libswiftCore.so") { return runtime }
        }
        return nil
    }()

    /// A ruleset fd confining writes to `writable` (plus `/dev/null`), execution to `executable`
    /// and the system's library directories, and — when `confineReads` — reads to all of
    /// those, the system's files a Swift program needs, the Swift runtime and `readable`.
    /// `proc` opens the procfs the extension sees (the extensions' namespace's, not the host's,
    /// when it joins them). The caller closes it.
    static func ruleset(
        writable: [String], executable: [String], readable: [String] = [],
        confineReads: Bool = true, proc: String = "/proc"
    ) throws(SandboxError) -> Int32 {
        let writeFiles = ["/dev/null"]
        let execs = executable + systemExecutablePaths
        let system = systemReadablePaths.map { $0 == "/proc" ? proc : $0 }
        let reads = system + (swiftRuntimeDirectory.map { [$0] } ?? []) + readable
        let fd = withCStrings(writable) { w in
            withCStrings(writeFiles) { f in
                withCStrings(execs) { x in
                    withCStrings(reads) { r in
                        sg_landlock_create(
                            w.baseAddress, Int32(writable.count), f.baseAddress, Int32(writeFiles.count),
                            x.baseAddress, Int32(execs.count), r.baseAddress, Int32(reads.count), confineReads ? 1 : 0)
                    }
                }
            }
        }
        guard fd >= 0 else { throw SandboxError(.landlock, errno: -fd, writable.joined(separator: ", ")) }
        return fd
    }
}

/// Calls `body` with a NULL-terminated C array of C strings valid for its duration
/// (`count` of the buffer excludes the terminator).
func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
    let duplicated = strings.map { strdup($0) }
    defer { duplicated.forEach { free($0) } }
    let pointers = duplicated.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { buffer in
        body(UnsafeBufferPointer(rebasing: buffer[0..<strings.count]))
    }
}
