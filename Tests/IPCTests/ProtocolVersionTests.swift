import SandglassIPC
import Testing

/// Version negotiation: same major, the lower minor; a different major is refused.
@Suite("Protocol version")
struct ProtocolVersionTests {
    @Test("same major: the lower minor, whichever side has it")
    func sameMajor() {
        let host = ProtocolVersion(major: 1, minor: 4)
        #expect(host.negotiated(with: ProtocolVersion(major: 1, minor: 2)) == ProtocolVersion(major: 1, minor: 2))
        #expect(host.negotiated(with: ProtocolVersion(major: 1, minor: 9)) == ProtocolVersion(major: 1, minor: 4))
        #expect(host.negotiated(with: host) == host)
        #expect(ProtocolVersion(major: 1, minor: 2).negotiated(with: host) == host.negotiated(with: ProtocolVersion(major: 1, minor: 2)))
    }

    @Test("a different major version is refused", arguments: [0, 1, 2, 3, 5, UInt16.max] as [UInt16])
    func differentMajor(major: UInt16) {
        #expect(ProtocolVersion.current.negotiated(with: ProtocolVersion(major: major, minor: 0)) == nil)
        #expect(ProtocolVersion(major: major, minor: 0).negotiated(with: .current) == nil)
    }

    @Test("current is 4.3; ordering and description")
    func basics() {
        #expect(ProtocolVersion.current == ProtocolVersion(major: 4, minor: 3))
        #expect(ProtocolVersion(major: 1, minor: 9) < ProtocolVersion(major: 2, minor: 0))
        #expect(ProtocolVersion(major: 1, minor: 1) > ProtocolVersion(major: 1, minor: 0))
        #expect(ProtocolVersion(major: 3, minor: 12).description == "3.12")
    }

    @Test("widget configurations need 4.1: an extension of 4.0 speaks the same major but is not sent them")
    func widgetConfigurations() {
        #expect(ProtocolVersion.widgetConfigurations == ProtocolVersion(major: 4, minor: 1))
        #expect(ProtocolVersion(major: 4, minor: 0) < .widgetConfigurations)
        #expect(ProtocolVersion.current >= .widgetConfigurations)
        #expect(ProtocolVersion(major: 4, minor: 0).negotiated(with: .current) == ProtocolVersion(major: 4, minor: 0))
    }

    @Test("session offers need 4.2: an extension of 4.1 is not offered a session")
    func sessionOffers() {
        #expect(ProtocolVersion.sessionOffers == ProtocolVersion(major: 4, minor: 2))
        #expect(ProtocolVersion(major: 4, minor: 1) < .sessionOffers)
        #expect(ProtocolVersion.current >= .sessionOffers)
    }
}
