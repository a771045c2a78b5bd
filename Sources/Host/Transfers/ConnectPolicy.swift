import CHTTP
import Glibc

/// Where the host connects on an extension's behalf. The host fetches with its own network
/// and privileges, so the address an extension names is checked — on every socket the host
/// opens for it, after DNS and for each redirect, so that neither a name nor a redirect leads
/// around it. A connection to a denied address fails as `NSURLErrorCannotConnectToHost`
/// (-1004), not retried, with the reason in its message.
///
/// ``standard`` denies what no widget has reason to reach and an attacker would: link-local
/// addresses (cloud metadata services at 169.254.169.254 and `fd00:ec2::254`), unspecified,
/// multicast and reserved addresses. It allows loopback, where test servers and a developer's
/// own backend run, and private networks. A campaign on shared infrastructure denies those too:
/// `--deny-connect private --deny-connect loopback`.
public struct ConnectPolicy: Sendable, Hashable {
    /// Ranges the host does not connect to.
    public var denied: [AddressRange]
    /// Exceptions to ``denied``: an address in one of these is allowed.
    public var allowed: [AddressRange]
    /// Ports the host itself serves (the daemon's metrics): never connected to, whatever
    /// ``allowed`` says.
    public var deniedEndpoints: [Endpoint] = []

    /// A port on a range of addresses, and what serves it there.
    public struct Endpoint: Sendable, Hashable {
        public let addresses: [AddressRange]
        public let port: UInt16
        public let what: String

        /// `port` where a listener bound to `host` is reached: every address for an unspecified
        /// one (`0.0.0.0`, `::`), loopback for `localhost`, else that address.
        public init(listeningOn host: String, port: UInt16, what: String) {
            let unspecified = [try! AddressRange("0.0.0.0/0"), try! AddressRange("::/0")]
            switch host {
            case "localhost": addresses = ConnectPolicy.named["loopback"]!
            case "0.0.0.0", "::", "": addresses = unspecified
            default: addresses = (try? AddressRange(host)).map { [$0] } ?? unspecified
            }
            self.port = port
            self.what = what
        }
    }

    public init(denied: [AddressRange], allowed: [AddressRange] = []) {
        self.denied = denied
        self.allowed = allowed
    }

    /// Denies link-local, cloud metadata, unspecified, multicast and reserved addresses.
    public static let standard = ConnectPolicy(
        denied: named["unspecified"]! + named["link-local"]! + named["metadata"]! + named["multicast"]!)

    /// The names ``ranges(_:)`` accepts besides a range: each a list of ranges.
    public static let named: [String: [AddressRange]] = [
        "loopback": ranges(("127.0.0.0/8", "loopback"), ("::1/128", "loopback")),
        "private": ranges(
            ("10.0.0.0/8", "private"), ("172.16.0.0/12", "private"), ("192.168.0.0/16", "private"),
            ("100.64.0.0/10", "shared address space"), ("fc00::/7", "unique local")),
        "link-local": ranges(("169.254.0.0/16", "link-local"), ("fe80::/10", "link-local")),
        "metadata": ranges(
            ("169.254.169.254/32", "cloud metadata"), ("fd00:ec2::254/128", "cloud metadata"),
            ("100.100.100.200/32", "cloud metadata")),
        "unspecified": ranges(("0.0.0.0/8", "this network"), ("::/128", "unspecified")),
        "multicast": ranges(("224.0.0.0/4", "multicast"), ("240.0.0.0/4", "reserved"), ("ff00::/8", "multicast"))
    ]

    /// `text` as ranges: a name of ``named``, `ADDRESS/BITS` or one address.
    public static func ranges(_ text: String) throws(AddressRangeError) -> [AddressRange] {
        if let ranges = named[text] { return ranges }
        do {
            return [try AddressRange(text)]
        } catch {
            throw AddressRangeError(
                text, "\(error.reason); expected ADDRESS/BITS, an address, or one of \(named.keys.sorted().joined(separator: ", "))")
        }
    }

    /// Why the host does not connect to `address` (4 or 16 bytes) on `port`, or nil when it may.
    public func refusal(of address: [UInt8], port: UInt16? = nil) -> String? {
        if let port, let endpoint = deniedEndpoints.first(where: { $0.port == port && $0.addresses.contains { $0.contains(address) } }) {
            return "\(AddressRange.text(address)) port \(port) is \(endpoint.what), which the host does not fetch for an extension"
        }
        guard let range = denied.first(where: { $0.contains(address) }), !allowed.contains(where: { $0.contains(address) }) else {
            return nil
        }
        return "\(AddressRange.text(address)) is in \(range), where the host does not connect for an extension"
    }

    /// Why the host does not connect to `address`, one of this machine's own (`local`, read only
    /// when it matters): with loopback denied, none of them — a connection to the machine's own
    /// address goes over loopback and reaches every service listening on all its addresses.
    public func refusal(ofLocal address: [UInt8], among local: () -> [[UInt8]]) -> String? {
        guard deniesLoopback, !allowed.contains(where: { $0.contains(address) }) else { return nil }
        // Written as IPv6 (`::ffff:a.b.c.d`), an IPv4 address of the machine is the same one.
        let forms = [address] + (AddressRange.embeddedIPv4(address).map { [$0] } ?? [])
        let addresses = local()
        guard forms.contains(where: addresses.contains) else { return nil }
        return
            "\(AddressRange.text(address)) is an address of this machine, reached over loopback, where the host does not connect for an extension"
    }

    /// Whether loopback (`127.0.0.1` or `::1`) is denied.
    var deniesLoopback: Bool {
        refusal(of: [127, 0, 0, 1]) != nil || refusal(of: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]) != nil
    }

    private static func ranges(_ list: (String, String)...) -> [AddressRange] {
        list.map { try! AddressRange($0.0, label: $0.1) }
    }
}

/// The transport's check of each address libcurl is about to connect to (`sg_http_address_check`).
final class ConnectGuard: Sendable {
    let policy: ConnectPolicy

    init(_ policy: ConnectPolicy) { self.policy = policy }

    /// The address and port of a socket address (IPv4 or IPv6), or nil for another family.
    static func address(_ pointer: UnsafePointer<sockaddr>, length: Int) -> (bytes: [UInt8], port: UInt16)? {
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                (withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) }, UInt16(bigEndian: v4.pointee.sin_port))
            }
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                (withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) }, UInt16(bigEndian: v6.pointee.sin6_port))
            }
        default:
            return nil
        }
    }

    /// The C callback: 1 to connect; else 0, with the reason written to `why`.
    static let check: sg_http_address_check = { pointer, length, context, why, whySize in
        guard let pointer, let context else { return 0 }
        let guarded = Unmanaged<ConnectGuard>.fromOpaque(context).takeUnretainedValue()
        let reason: String?
        if let address = address(pointer, length: Int(length)) {
            reason =
                guarded.policy.refusal(of: address.bytes, port: address.port)
                ?? guarded.policy.refusal(ofLocal: address.bytes, among: LocalAddresses.current)
        } else {
            reason = "an address of family \(pointer.pointee.sa_family) is not IP"
        }
        guard let reason else { return 1 }
        if let why, whySize > 0 {
            _ = reason.withCString { strncpy(why, $0, whySize - 1) }
            why[whySize - 1] = 0
        }
        return 0
    }
}
