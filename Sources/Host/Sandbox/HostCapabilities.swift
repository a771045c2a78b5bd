import Glibc

/// The Linux capabilities a root host needs to give each extension a uid of its own, read from
/// the host's effective set (`CapEff` in `/proc/self/status`).
///
/// A container often runs its root without some of them (Kubernetes' `capabilities: drop`); a
/// host that went on would start extensions it cannot signal (no `CAP_KILL`: a budget kill fails
/// and the host waits for a process it cannot end) or cannot start them at all. So the host
/// checks before its first spawn and says which capability is missing and what to do.
enum HostCapabilities {
    /// A capability the host uses with per-extension identities, and what for.
    struct Requirement: Sendable {
        let name: String
        let bit: Int
        let use: String
    }

    /// Each capability a root host uses with per-extension identities.
    static let perExtensionIdentities: [Requirement] = [
        Requirement(name: "CAP_CHOWN", bit: 0, use: "giving each container to its extension's uid"),
        Requirement(name: "CAP_DAC_OVERRIDE", bit: 1, use: "opening the containers the extensions own"),
        Requirement(name: "CAP_FOWNER", bit: 3, use: "re-securing a container its extension owns"),
        Requirement(name: "CAP_KILL", bit: 5, use: "budget kills, idle termination and chaos signals to other uids"),
        Requirement(name: "CAP_SETGID", bit: 6, use: "the extension's own gid"),
        Requirement(name: "CAP_SETUID", bit: 7, use: "the extension's own uid")
    ]

    /// The capabilities the extensions' mount and network namespaces need (``ExtensionNamespaces``).
    static let extensionNamespaces: [Requirement] = [
        Requirement(name: "CAP_SYS_ADMIN", bit: 21, use: "mounting the extensions' procfs and joining their namespaces"),
        Requirement(name: "CAP_SYS_CHROOT", bit: 18, use: "joining their mount namespace")
    ]

    /// The effective capability set, or nil when it cannot be read.
    static func effective(status path: String = "/proc/self/status") -> UInt64? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("CapEff:") else { continue }
            return UInt64(text.dropFirst("CapEff:".count).trimmingCharacters(in: " \t\n"), radix: 16)
        }
        return nil
    }

    /// The `requirements` `effective` lacks.
    static func missing(_ requirements: [Requirement] = perExtensionIdentities, from effective: UInt64) -> [Requirement] {
        requirements.filter { effective & (1 << UInt64($0.bit)) == 0 }
    }

    /// Throws, naming each missing capability, when the host is to give extensions identities of
    /// their own but lacks a capability it needs for that.
    static func check(for user: ExtensionUser) throws {
        guard user.isPerExtension, let effective = effective() else { return }
        let missing = missing(from: effective)
        guard !missing.isEmpty else { return }
        let list = missing.map { "\($0.name) (\($0.use))" }.joined(separator: ", ")
        throw HostSetupError(
            description: """
                the host runs as root, so each extension gets a uid of its own, but it lacks \(list). \
                Give the host these capabilities (a container: securityContext.capabilities.add, see deploy/README.md), \
                or run it as an unprivileged user (every extension then shares that user).
                """)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return s
    }
}
