/// When the host asks Today extensions to update, besides when a widget is added and each time
/// the widgets become visible.
public struct TodaySettings: Sendable, Hashable {
    /// While the widgets stay visible, another update after this long (15 min) [harness].
    public var visibleInterval: Duration = .seconds(15 * 60)
    /// While they are not visible, a background update after this long (2 h) [harness].
    public var backgroundInterval: Duration = .seconds(2 * 3600)

    public init() {}
}
