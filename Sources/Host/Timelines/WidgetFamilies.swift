/// Widget families and the display size the host reports for each (iPhone points).
enum WidgetFamilies {
    static let sizes: [String: (width: Double, height: Double)] = [
        "systemSmall": (170, 170),
        "systemMedium": (364, 170),
        "systemLarge": (364, 382),
        "systemExtraLarge": (715, 338),
        "accessoryCircular": (76, 76),
        "accessoryRectangular": (172, 76),
        "accessoryInline": (257, 26)
    ]

    static func size(of family: String) -> (width: Double, height: Double) {
        sizes[family] ?? (170, 170)
    }
}
