import Testing

@testable import SandglassHost

/// Where the host connects for an extension: the standard policy, and ranges as the command line gives them.
@Suite("Connect policy")
struct ConnectPolicyTests {
    private func address(_ text: String) throws -> [UInt8] { try #require(AddressRange.address(text)) }

    @Test(
        "the standard policy denies metadata, link-local, unspecified and multicast addresses, also written as IPv6; loopback and the rest are allowed"
    )
    func standard() throws {
        let policy = ConnectPolicy.standard
        for denied in [
            "169.254.169.254", "169.254.170.2", "fe80::1", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::", "224.0.0.1",
            "255.255.255.255", "ff02::1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe"
        ] {
            #expect(policy.refusal(of: try address(denied)) != nil, "\(denied) is allowed")
        }
        for allowed in [
            "127.0.0.1", "::1", "10.1.2.3", "192.168.1.1", "93.184.216.34", "2606:4700::1111", "::ffff:127.0.0.1", "100.100.100.201"
        ] {
            #expect(policy.refusal(of: try address(allowed)) == nil, "\(allowed) is denied")
        }
        #expect(
            policy.refusal(of: try address("169.254.169.254"))
                == "169.254.169.254 is in 169.254.0.0/16 (link-local), where the host does not connect for an extension")
    }

    @Test("an allowed range is an exception to the denied ones")
    func exception() throws {
        let policy = ConnectPolicy(denied: try ConnectPolicy.ranges("private"), allowed: try ConnectPolicy.ranges("10.1.0.0/16"))
        #expect(policy.refusal(of: try address("10.1.2.3")) == nil)
        #expect(policy.refusal(of: try address("10.2.0.1")) != nil)
        #expect(policy.refusal(of: try address("fd12::1"))?.contains("(unique local)") == true)
    }

    @Test("a port the host serves is denied on the addresses its listener is reached at, whatever the exceptions; other ports are not")
    func endpoints() throws {
        var policy = ConnectPolicy(denied: [], allowed: try ConnectPolicy.ranges("loopback"))
        policy.deniedEndpoints = [.init(listeningOn: "127.0.0.1", port: 9464, what: "the metrics")]
        #expect(
            policy.refusal(of: try address("127.0.0.1"), port: 9464)
                == "127.0.0.1 port 9464 is the metrics, which the host does not fetch for an extension")
        #expect(policy.refusal(of: try address("127.0.0.1"), port: 9465) == nil)
        #expect(policy.refusal(of: try address("127.0.0.2"), port: 9464) == nil)
        policy.deniedEndpoints = [.init(listeningOn: "0.0.0.0", port: 9464, what: "the metrics")]
        for reached in ["10.1.2.3", "::1", "127.0.0.2"] {
            #expect(policy.refusal(of: try address(reached), port: 9464) != nil, "\(reached)")
        }
        policy.deniedEndpoints = [.init(listeningOn: "localhost", port: 9464, what: "the metrics")]
        #expect(policy.refusal(of: try address("::1"), port: 9464) != nil)
        #expect(policy.refusal(of: try address("10.1.2.3"), port: 9464) == nil)
    }

    @Test("a range that is not one names the text and what is wrong")
    func badRanges() {
        for (text, reason) in [
            ("10.0.0.0/33", "the prefix length \"33\" is not 0 to 32"), ("fe80::/129", "is not 0 to 128"),
            ("example.com", "\"example.com\" is not an IPv4 or IPv6 address"), ("10.0.0.0/", "the prefix length \"\" is not"),
            ("privat", "one of link-local, loopback, metadata, multicast, private, unspecified")
        ] {
            #expect(throws: AddressRangeError.self) { try ConnectPolicy.ranges(text) }
            do {
                _ = try ConnectPolicy.ranges(text)
            } catch {
                #expect(error.description.hasPrefix(text.debugDescription) && error.description.contains(reason), "\(error)")
            }
        }
    }

    @Test("a prefix keeps its leading bits only")
    func masking() throws {
        let range = try AddressRange("172.31.255.255/12")
        #expect(range.description == "172.16.0.0/12")
        #expect(range.contains(try address("172.20.1.1")))
        #expect(!range.contains(try address("172.32.0.1")))
        #expect(try AddressRange("fe80::1234/10").description == "fe80::/10")
    }
}
