import Glibc

/// A range of IP addresses: an IPv4 or IPv6 prefix (`169.254.0.0/16`, `fe80::/10`, or one
/// address), as ``ConnectPolicy`` lists them.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The prefix's bytes: 4 (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]
    /// How many leading bits of ``bytes`` an address must share.
    public let prefixLength: Int
    /// What the range is, for a refusal's message (`link-local`), or nil.
    public let label: String?

    /// `text` as a range: `ADDRESS/BITS` or one address. The reason it is not one, else.
    public init(_ text: String, label: String? = nil) throws(AddressRangeError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let address = Self.address(parts[0]) else {
            throw AddressRangeError(text, "\(parts[0].debugDescription) is not an IPv4 or IPv6 address")
        }
        let bits = address.count * 8
        var length = bits
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...bits).contains(parsed) else {
                throw AddressRangeError(text, "the prefix length \(parts[1].debugDescription) is not 0 to \(bits)")
            }
            length = parsed
        }
        bytes = Self.masked(address, to: length)
        prefixLength = length
        self.label = label
    }

    /// Whether `address` (4 or 16 bytes) is in the range. An IPv4 address written as IPv6
    /// (`::ffff:a.b.c.d`, NAT64's `64:ff9b::a.b.c.d`) is matched as the IPv4 address too.
    public func contains(_ address: [UInt8]) -> Bool {
        if address.count == bytes.count, Self.masked(address, to: prefixLength) == bytes { return true }
        if bytes.count == 4, let embedded = Self.embeddedIPv4(address) { return contains(embedded) }
        return false
    }

    public var description: String {
        let text = Self.text(bytes) + "/\(prefixLength)"
        return label.map { "\(text) (\($0))" } ?? text
    }

    /// The bytes of an IPv4 or IPv6 address in text, or nil.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// An address's bytes as text (`169.254.169.254`, `fe80::1`).
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        guard address.withUnsafeBytes({ inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:0:0/96`) or NAT64 (`64:ff9b::/96`) IPv6 address.
    static func embeddedIPv4(_ address: [UInt8]) -> [UInt8]? {
        guard address.count == 16 else { return nil }
        let head = Array(address[0..<12])
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        let nat64: [UInt8] = [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
        return head == mapped || head == nat64 ? Array(address[12..<16]) : nil
    }

    private static func masked(_ address: [UInt8], to length: Int) -> [UInt8] {
        address.enumerated().map { index, byte in
            let kept = min(8, max(0, length - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }
}

/// A range on the command line that is not one: the text, and what is wrong with it.
public struct AddressRangeError: Error, CustomStringConvertible {
    public let text: String
    public let reason: String

    init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "\(text.debugDescription): \(reason)" }
}
