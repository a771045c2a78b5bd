/// Escaping for text and attribute values placed in HTML and SVG: the widget drawings and the run report.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped (safe in element text and quoted attributes).
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` escaped, with what the event log escapes though JSON allows it — DEL, C1 controls,
    /// the bidirectional embeddings, overrides and isolates — written out (`\u{202E}`) as the log
    /// and the trace write it: the report's text, where an extension's override would reorder
    /// the host's text after it (a kind of "\u{202E}deppots" beside "killed"). A widget's drawing
    /// keeps them (``escape(_:)``): there they are the widget's own text, drawn as iOS would.
    package static func escapeVisibly(_ text: String) -> String {
        escape(TraceRenderer.writingOut(text, where: JSONValue.escapedInLog))
    }

    /// `text` escaped visibly in a `<bdi>`: an extension's name in the flow of the page, isolated
    /// from the host's text around it.
    package static func isolate(_ text: String) -> String {
        "<bdi>" + escapeVisibly(text) + "</bdi>"
    }

    /// `text` cut to `limit` Unicode scalars with an ellipsis (scalars, not characters: one
    /// character may carry thousands of combining marks).
    package static func clip(_ text: String, _ limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(max(0, limit - 1)))) + "…"
    }

    /// A number for SVG coordinates: at most two decimals.
    package static func coordinate(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
