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

    /// `text` escaped, its bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069) written out as `\u{202E}`, as the event log and the trace write them: the
    /// report's text, where an extension's override would reorder the host's text after it
    /// (a kind of "\u{202E}deppots" beside "killed"). A widget's drawing keeps them
    /// (``escape(_:)``): there they are the widget's own text, drawn as iOS would draw it.
    package static func escapeVisibly(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiControl) else { return escape(text) }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) {
                shown.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}").unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return escape(String(shown))
    }

    /// `text` escaped visibly in a `<bdi>`: an extension's name in the flow of the page, isolated
    /// from the host's text around it.
    package static func isolate(_ text: String) -> String {
        "<bdi>" + escapeVisibly(text) + "</bdi>"
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
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
