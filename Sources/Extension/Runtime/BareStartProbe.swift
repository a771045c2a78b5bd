#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// For `sandglass bench`: the floor of an extension's cold start is the start of its very
/// binary, spawn → first line of `main`. With `SANDGLASS_BENCH_BARE_START_FD` naming a
/// descriptor, the entry point writes one byte to it and exits at once, before any work of the
/// SDK or of Foundation (the host never sets the variable; an extension that sets it for itself
/// only ends itself).
@usableFromInline
enum BareStartProbe {
    static let variable = "SANDGLASS_BENCH_BARE_START_FD"

    /// Exits (status 0) after the byte when the variable is set; returns otherwise.
    @usableFromInline
    static func exitIfAsked() {
        guard let value = getenv(variable) else { return }
        var byte: UInt8 = 0x2E
        _ = write(atoi(value), &byte, 1)
        _exit(0)
    }
}
