import Foundation
import SandglassHost
import SandglassIPC

extension HTMLReport {
    /// Each widget's entries drawn as the widget would look: a filmstrip along its timelines —
    /// the placeholder (redacted), then each entry at its date, light and dark, at the family's
    /// size in points — with the entry's data on hover.
    func filmstrips(_ analysis: RunAnalysis, runIndex: Int, _ page: inout HTMLPage) {
        let drawable = analysis.widgets.filter { widget in
            widget.placeholder?.viewJSON != nil || widget.timelines.contains { $0.entries.contains { $0.viewJSON != nil } }
        }
        guard !drawable.isEmpty else { return }
        let e = HTMLText.escapeVisibly
        let i = HTMLText.isolate
        page.raw("<h3>Widgets as they look</h3><p class=\"note\">Each entry drawn at the family's size in points, light then dark, ")
        page.raw(
            "with the dates that change as time passes read at the entry's date, and the placeholder redacted. The drawing is a faithful ")
        page.raw(
            "layout of the view tree the extension rendered (frames, text runs at the widths it measured, colours, images by name and size), "
        )
        page.raw("not Apple's pixels. Hover an entry for its data.</p>")
        var drawnBytes = 0
        var framesLeftOut = 0
        for (w, widget) in drawable.prefix(limits.drawnWidgets).enumerated() {
            page.raw(
                "<div class=\"filmstrip\" data-widget=\"\(e(widget.name))\"><div class=\"strip-title\"><b>\(i(widget.name))</b> of \(i(widget.bundle))</div><div class=\"frames\">"
            )
            var frames: [(label: String, entry: RunAnalysis.Entry)] = []
            if let placeholder = widget.placeholder, placeholder.viewJSON != nil { frames.append(("placeholder", placeholder)) }
            var timed: [(label: String, entry: RunAnalysis.Entry)] = []
            for timeline in widget.timelines {
                for entry in timeline.entries where entry.viewJSON != nil {
                    timed.append(("t=\(TimeAxis.label(max(0, entry.t ?? timeline.t)))", entry))
                }
            }
            frames += timed.suffix(limits.drawnEntriesPerWidget)
            var notes: Set<String> = []
            for (f, frame) in frames.enumerated() {
                guard drawnBytes < limits.drawingBytes else {
                    framesLeftOut += 1
                    continue
                }
                guard let view = frame.entry.view else { continue }
                notes.formUnion(view.light.notes)
                let scale = WidgetDrawing(view, appearance: .light, family: widget.family).size.width > 400 ? 0.5 : 1
                let at = frame.entry.seconds ?? 0
                let data =
                    "\(frame.label) · entry \(frame.entry.date ?? "?")\(frame.entry.text.map { "\n“\(HTMLText.clip($0, 500))”" } ?? "")\n\(HTMLText.clip(frame.entry.json, 2000))"
                page.raw("<figure class=\"frame\" title=\"\(e(data))\" data-entry=\"\(e(HTMLText.clip(frame.entry.json, 2000)))\">")
                for appearance in WidgetDrawing.Appearance.allCases {
                    let drawing = WidgetDrawing(
                        view, appearance: appearance, idPrefix: "r\(runIndex)w\(w)f\(f)\(appearance.rawValue.prefix(1))",
                        family: widget.family)
                    let svg = drawing.svg(at: at, scale: scale)
                    drawnBytes += svg.utf8.count
                    page.raw(svg)
                }
                page.raw(
                    "<figcaption>\(e(frame.label)) · render \(RunAnalysis.formatMs(Double(view.nanoseconds) / 1e6))</figcaption></figure>")
            }
            page.raw("</div>")
            if timed.count > limits.drawnEntriesPerWidget {
                page.raw("<p class=\"note\">The latest \(limits.drawnEntriesPerWidget) of \(timed.count) entries.</p>")
            }
            for note in notes.sorted() { page.raw("<p class=\"note view-note\">⚠ \(e(note))</p>") }
            page.raw("</div>")
        }
        if framesLeftOut > 0 {
            page.raw(
                "<p class=\"note\">\(framesLeftOut) entries are not drawn: the page's drawings take at most \(limits.drawingBytes >> 20) MiB.</p>"
            )
        }
        if drawable.count > limits.drawnWidgets {
            page.raw("<p class=\"note\">The first \(limits.drawnWidgets) of \(drawable.count) widgets are drawn.</p>")
        }
    }
}
