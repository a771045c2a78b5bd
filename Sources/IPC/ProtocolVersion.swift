/// The version of the Sandglass IPC protocol.
///
/// Hosts and extensions that share a major version understand each other; the minor
/// version grows when messages are added, the major when an existing message's layout changes
/// (2.0: `eventHandled` carries the start of the delegate call; 3.0: `downloadFinished` passes
/// the body as a descriptor and names the file the SDK makes from it; 4.0: each entry of
/// `entryReply` and `timelineReply` carries its view, a ``ViewRendering``; 4.1: `osLog`,
/// `widgetConfiguration`, `currentConfigurationsRequest` and `currentConfigurations`; 4.2: a
/// `sessionAttached` the extension did not ask for, offered when it accepts a
/// `backgroundEventsRequest`; 4.3: a listed task's response leaves out its URL when it is the
/// request's). The host answers `hello` with the lower of the two minor versions,
/// and refuses a different major version with a clear error.
public struct ProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: UInt16
    public var minor: UInt16

    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// The first version with `widgetConfiguration`, `currentConfigurations…` and `osLog`:
    /// the host sends a widget's configuration only to an extension that speaks it.
    public static let widgetConfigurations = ProtocolVersion(major: 4, minor: 1)

    /// The first version whose extensions keep an offered session (``Message/sessionAttached(identifier:tasks:)``
    /// before `attachSession`, and the events after it) for the session they re-create: the host
    /// offers it only to an extension that speaks it.
    public static let sessionOffers = ProtocolVersion(major: 4, minor: 2)

    /// The first version whose extensions read a listed task's response without a URL as the
    /// request's (``TaskSnapshot/response``): the host leaves it out only for them.
    public static let listedResponsesWithoutURL = ProtocolVersion(major: 4, minor: 3)

    /// The version this build of SandglassIPC speaks.
    public static let current = ProtocolVersion(major: 4, minor: 3)

    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    public var description: String { "\(major).\(minor)" }

    /// The version both sides speak, or `nil` when the major versions differ.
    public func negotiated(with peer: ProtocolVersion) -> ProtocolVersion? {
        guard peer.major == major else { return nil }
        return ProtocolVersion(major: major, minor: min(minor, peer.minor))
    }
}
