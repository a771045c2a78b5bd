/// A stress plan could not be made; the description says why.
public struct ChaosPlanError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
