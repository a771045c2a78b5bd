// Apple's DeveloperToolsSupport: the types Xcode previews are made of. SwiftUI and WidgetKit
// declare the `#Preview` macros and the initializers of `Preview` they expand to.

/// A preview, as the `#Preview` macros create it: SwiftUI's and WidgetKit's initializers take
/// the macro's arguments, so the compiler checks them as Xcode does. Sandglass compiles previews
/// and never runs them; there is no canvas.
///
/// You don't use this type directly: write a preview macro.
///
/// ```swift
/// #Preview(as: .systemSmall) {
///     MyWidget()
/// } timeline: {
///     SimpleEntry(date: .now)
/// }
/// ```
@MainActor
public struct Preview {
    /// A preview: for the initializers the frameworks declare, which check their arguments'
    /// types and drop them.
    package init() {}
}

extension Preview {
    /// The kind of preview that view traits apply to.
    public enum ViewTraits {}
}
