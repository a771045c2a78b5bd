import CSandbox
import Glibc

/// Landlock on this kernel, and the rulesets built for containers.
enum Landlock {
    /// The ABI version, 0 when the kernel has no Landlock.
    static let abi: Int = Int(sg_landlock_abi())

    /// Directories whose files may be executed (the ELF interpreter and libraries live here).
    static let systemExecutablePaths = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/libexec"]

    /// A ruleset fd confining writes to `writable` (plus `/dev/null`) and execution to
    /// `executable` and the system's library directories. The caller closes it.
    static func ruleset(writable: [String], executable: [String]) throws(SandboxError) -> Int32 {
        let writeFiles = ["/dev/null"]
        let execs = executable + systemExecutablePaths
        let fd = withCStrings(writable) { w in
            withCStrings(writeFiles) { f in
                withCStrings(execs) { x in
                    sg_landlock_create(w.baseAddress, Int32(writable.count), f.baseAddress, Int32(writeFiles.count),
                                       x.baseAddress, Int32(execs.count))
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
