import WidgetKit

// A file that imports WidgetKit alone: its previews expand to `DeveloperToolsSupport.Preview`,
// which WidgetKit re-exports. Compiling is the test.

#Preview("WidgetKit alone", as: .systemSmall) {
    PreviewedWidget()
} timeline: {
    PreviewedEntry(date: .now, emoji: "🧩")
}
