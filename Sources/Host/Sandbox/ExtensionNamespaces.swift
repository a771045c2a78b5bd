import CSandbox
import Glibc

/// The mount and network namespaces a root host's extensions join at spawn, made by each host's
/// sandbox (sg_namespaces_create, about half a millisecond) and closed with it: the host's
/// mounts with `/proc` a procfs of its own mounted `hidepid=2,subset=pid`, so that each extension
/// sees only the processes of its own uid — not the host's, another extension's, or the
/// operator's command lines — and nothing else of the machine's; and an empty network, so that
/// its `/proc/self/net` lists none of the host's connections. Extensions make no socket of their
/// own (seccomp), so the network namespace changes nothing else for them.
struct ExtensionNamespaces: Sendable {
    /// The mount namespace, for setns.
    let mountNamespace: Int32
    /// The network namespace, for setns.
    let networkNamespace: Int32
    /// An O_PATH descriptor of the namespace's `/proc`: Landlock's read rule must name this
    /// procfs, not the host's.
    let procRoot: Int32

    /// Whether that `/proc` shows nothing but processes (`subset=pid`, Linux 5.8): else the
    /// machine's files (`/proc/locks`, `/proc/loadavg`, `/proc/sys`) show too.
    let procSubset: Bool

    /// The path that opens the namespace's `/proc` from the host.
    var procPath: String { "/proc/self/fd/\(procRoot)" }

    /// Why a host cannot have them.
    struct Unavailable: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// New namespaces, or why the host cannot make them.
    static func make() -> Result<ExtensionNamespaces, Unavailable> {
        let missing = HostCapabilities.missing(HostCapabilities.extensionNamespaces, from: HostCapabilities.effective() ?? 0).map(\.name)
        guard missing.isEmpty else {
            return .failure(
                Unavailable(
                    description:
                        "the host lacks \(missing.joined(separator: " and ")) (run it as root to hide other processes from extensions)"))
        }
        var mount: Int32 = -1, network: Int32 = -1, proc: Int32 = -1, subset: Int32 = 0, step: Int32 = 0
        let rc = sg_namespaces_create(&mount, &network, &proc, &subset, &step)
        guard rc == 0 else {
            let what = String(cString: sg_namespaces_step_name(step))
            if step == SG_NAMESPACES_CHROOT { return .failure(Unavailable(description: what)) }
            let reason = String(cString: strerror(-rc))
            return .failure(Unavailable(description: "\(what) failed: \(reason) (errno \(-rc))"))
        }
        return .success(ExtensionNamespaces(mountNamespace: mount, networkNamespace: network, procRoot: proc, procSubset: subset == 1))
    }

    /// Closes the descriptors: the namespaces end with the last process in them.
    func close() {
        [mountNamespace, networkNamespace, procRoot].forEach { _ = Glibc.close($0) }
    }
}
