import CHTTP
import Glibc

/// The addresses of this machine's interfaces (IPv4 and IPv6), read with `getifaddrs` when asked:
/// a connection to any of them goes over loopback, whichever interface carries it.
enum LocalAddresses {
    /// The addresses assigned now, each 4 or 16 bytes.
    static func current() -> [[UInt8]] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ifa_addr,
                let (bytes, _) = ConnectGuard.address(
                    address,
                    length: Int(address.pointee.sa_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            {
                addresses.append(bytes)
            }
            entry = current.pointee.ifa_next
        }
        return addresses
    }
}
