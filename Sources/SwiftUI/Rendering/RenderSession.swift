import SandglassIPC

/// What one evaluation of an entry's view collects besides its nodes: the widget's container
/// background and URL, notes for the report, the bitmaps decoded meanwhile.
@MainActor
final class RenderSession {
    /// The entry's date: dynamic dates are resolved at it.
    let date: Date
    private(set) var notes: [String] = []
    var containerBackground: LayoutNode?
    var widgetURL: URL?
    let bitmaps = DecodedBitmaps()

    init(date: Date) {
        self.date = date
    }

    /// Records `note` once.
    func note(_ note: String) {
        if !notes.contains(note) && notes.count < 20 { notes.append(note) }
    }
}
