extension Preview {
    /// The preview of a view that `#Preview { … }` expands to: the body is type-checked, never
    /// evaluated.
    public init(
        _ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>...,
        @ViewBuilder body: @escaping @MainActor () -> any View
    ) {
        self.init()
    }
}
