/// The orientation of the interface from the user's point of view
/// (`previewInterfaceOrientation(_:)`).
public struct InterfaceOrientation: CaseIterable, Identifiable, Equatable, Sendable {
    /// The orientation's name.
    public let id: String

    /// The device upright.
    public static let portrait = InterfaceOrientation(id: "portrait")
    /// The device upside down.
    public static let portraitUpsideDown = InterfaceOrientation(id: "portraitUpsideDown")
    /// The device turned with its top to the left.
    public static let landscapeLeft = InterfaceOrientation(id: "landscapeLeft")
    /// The device turned with its top to the right.
    public static let landscapeRight = InterfaceOrientation(id: "landscapeRight")

    public static let allCases: [InterfaceOrientation] = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]
}
