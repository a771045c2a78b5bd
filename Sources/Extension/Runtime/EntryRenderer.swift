/// A configuration's content closure, turned into a text rendering of an entry.
///
/// The closure runs on the main actor, where Apple's view builders run.
struct EntryRenderer: Sendable {
    let render: @MainActor @Sendable (any TimelineEntry) -> String

    init<Entry: TimelineEntry, Content>(_ content: @escaping @MainActor (Entry) -> Content) {
        render = { entry in
            guard let entry = entry as? Entry else {
                return String(describing: entry)
            }
            let rendered = content(entry)
            return rendered as? String ?? String(describing: rendered)
        }
    }
}
