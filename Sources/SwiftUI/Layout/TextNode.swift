import SandglassIPC

/// A run of text resolved in its environment: string, font, paint.
struct ResolvedRun {
    var text: String
    var font: Font
    var paint: ViewPaint
    var decoration: TextRun.Decoration = []
    var dynamic: DynamicText?
    /// An inline image: one unbreakable piece drawn as a symbol.
    var isSymbol: Bool { decoration.contains(.symbol) }
}

/// A `Text`: lines broken at spaces to the width proposed, cut with "…" past its line limit or
/// the height proposed, shrunk down to its minimum scale factor before it is cut.
final class TextNode: LayoutNode {
    let runs: [ResolvedRun]
    let lineLimit: Int?
    let alignment: TextAlignment
    let minimumScaleFactor: CGFloat
    let truncation: Text.TruncationMode
    let lineSpacing: CGFloat
    let flags: ViewNode.Flags

    /// A piece that is never broken across lines (a word with its trailing spaces, a symbol, a
    /// dynamic date), or a hard line break.
    private struct Piece {
        var run: Int
        var text: String
        var isBreak = false
        var isSpace = false
        /// Widths at scale 1: the whole piece, and without its trailing spaces.
        var width: CGFloat = 0
        var visibleWidth: CGFloat = 0
    }

    private struct Line {
        var pieces: [(run: Int, text: String)] = []
        var width: CGFloat = 0
    }

    private struct Layout {
        var lines: [Line]
        var scale: CGFloat
        var size: CGSize
        var truncated: Bool
    }

    private var pieces: [Piece]
    /// Layouts by the width offered and the lines the height allows: a few per node, searched
    /// in order (hashing a key cost more than comparing them all).
    private var layouts: [(LayoutKey, Layout)] = []

    private struct LayoutKey: Equatable {
        var width: CGFloat?
        var height: CGFloat?
    }
    /// Each run's line height and ascent at scale 1.
    private let runHeights: [(height: CGFloat, ascent: CGFloat)]

    init(runs: [ResolvedRun], context: ResolveContext) {
        self.runs = runs
        let environment = context.environment
        lineLimit = environment.lineLimit
        alignment = environment.multilineTextAlignment
        minimumScaleFactor = min(max(environment.minimumScaleFactor, 0.01), 1)
        truncation = environment.truncationMode
        lineSpacing = environment.lineSpacing
        flags = environment.drawingFlags
        var pieces: [Piece] = []
        for (index, run) in runs.enumerated() {
            if run.isSymbol || run.dynamic != nil {
                pieces.append(Piece(run: index, text: run.text))
                continue
            }
            var word = ""
            for character in run.text {
                if character == "\n" || character == "\u{2028}" {
                    if !word.isEmpty { pieces.append(Piece(run: index, text: word)) }
                    word = ""
                    pieces.append(Piece(run: index, text: "", isBreak: true))
                } else if character == " " {
                    word.append(character)
                    pieces.append(Piece(run: index, text: word, isSpace: word.allSatisfy { $0 == " " }))
                    word = ""
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { pieces.append(Piece(run: index, text: word)) }
        }
        runHeights = runs.map { ($0.font.lineHeight, $0.font.ascent) }
        self.pieces = []
        super.init()
        self.pieces = pieces.map { piece in
            var piece = piece
            piece.width = width(piece.text, run: piece.run, scale: 1)
            let trimmed = piece.text.hasSuffix(" ") ? String(piece.text.reversed().drop { $0 == " " }.reversed()) : piece.text
            piece.visibleWidth =
                piece.isSpace ? 0 : trimmed.count == piece.text.count ? piece.width : width(trimmed, run: piece.run, scale: 1)
            return piece
        }
    }

    private func width(_ text: String, run: Int, scale: CGFloat) -> CGFloat {
        let r = runs[run]
        return TextMetrics.width(
            of: text, size: r.font.size * scale, weight: r.font.weight.value,
            monospaced: r.font.design == .monospaced, monospacedDigits: r.font.hasMonospacedDigits)
    }

    private func lineHeight(_ line: Line, scale: CGFloat) -> CGFloat {
        guard !line.pieces.isEmpty else { return (runHeights.first?.height ?? Font.body.lineHeight) * scale }
        var height: CGFloat = 0
        for piece in line.pieces { height = max(height, runHeights[piece.run].height) }
        return height * scale
    }

    private func lineAscent(_ line: Line, scale: CGFloat) -> CGFloat {
        guard !line.pieces.isEmpty else { return (runHeights.first?.ascent ?? Font.body.ascent) * scale }
        var ascent: CGFloat = 0
        for piece in line.pieces { ascent = max(ascent, runHeights[piece.run].ascent) }
        return ascent * scale
    }

    /// Greedy line breaking at `scale` in `maxWidth`, at most `maxLines` lines.
    private func breakLines(maxWidth: CGFloat, maxLines: Int, scale: CGFloat) -> (lines: [Line], truncated: Bool) {
        var lines: [Line] = []
        var line = Line()
        func finish() {
            // Trailing spaces take no room at the end of a line.
            while let last = line.pieces.last, last.text.hasSuffix(" ") {
                let trimmed = String(last.text.dropLast())
                line.width -= width(last.text, run: last.run, scale: scale) - width(trimmed, run: last.run, scale: scale)
                if trimmed.isEmpty { line.pieces.removeLast() } else { line.pieces[line.pieces.count - 1].text = trimmed; break }
            }
            lines.append(line)
            line = Line()
        }
        for piece in pieces {
            // Past the lines that fit, only the next line's start matters.
            if lines.count > maxLines { break }
            if piece.isBreak {
                finish()
                continue
            }
            let w = piece.width * scale
            // Trailing spaces may hang past the end of a line.
            let visible = piece.visibleWidth * scale
            if line.width + visible > maxWidth + 0.01, !line.pieces.isEmpty {
                finish()
                if piece.isSpace { continue }
            }
            if visible > maxWidth + 0.01, line.pieces.isEmpty, piece.text.count > 1, runs[piece.run].dynamic == nil {
                // A word wider than the line breaks between characters.
                var chunk = "", chunkWidth: CGFloat = 0
                for character in piece.text {
                    let advance = width(String(character), run: piece.run, scale: scale)
                    if !chunk.isEmpty, chunkWidth + advance > maxWidth + 0.01 {
                        line.pieces.append((piece.run, chunk))
                        line.width = chunkWidth
                        finish()
                        chunk = String(character)
                        chunkWidth = advance
                    } else {
                        chunk.append(character)
                        chunkWidth += advance
                    }
                }
                line.pieces.append((piece.run, chunk))
                line.width = chunkWidth
                continue
            }
            line.pieces.append((piece.run, piece.text))
            line.width += w
        }
        if !line.pieces.isEmpty || lines.isEmpty { finish() }
        guard lines.count > maxLines else {
            let overflows = lines.contains { $0.width > maxWidth + 0.01 }
            if overflows { return (lines.map { truncate($0, to: maxWidth, scale: scale) }, true) }
            return (lines, false)
        }
        var kept = Array(lines.prefix(max(1, maxLines)))
        var last = kept[kept.count - 1]
        // The next line's first piece shows that the text goes on.
        last.pieces.append((lines[kept.count].pieces.first?.run ?? 0, " \u{2026}"))
        last.width = .infinity
        kept[kept.count - 1] = truncate(last, to: maxWidth, scale: scale)
        return (kept, true)
    }

    /// `line` cut to `maxWidth` with an ellipsis at its end.
    private func truncate(_ line: Line, to maxWidth: CGFloat, scale: CGFloat) -> Line {
        guard line.width > maxWidth + 0.01 else { return line }
        // One character that does not fit is drawn as it is (clipped), not as an ellipsis.
        if line.pieces.count == 1, line.pieces[0].text.count <= 1 { return line }
        var pieces = line.pieces.filter { !$0.text.hasSuffix("\u{2026}") }
        var widths = pieces.map { width($0.text, run: $0.run, scale: scale) }
        var total = widths.reduce(0, +)
        let ellipsisRun = pieces.last?.run ?? 0
        let ellipsis = width("\u{2026}", run: ellipsisRun, scale: scale)
        /// Drops the last character of the last piece (the piece when it was its last).
        func dropLastCharacter() {
            var last = pieces.removeLast()
            total -= widths.removeLast()
            guard last.text.count > 1 else { return }
            last.text.removeLast()
            let w = width(last.text, run: last.run, scale: scale)
            pieces.append(last)
            widths.append(w)
            total += w
        }
        while !pieces.isEmpty, total + ellipsis > maxWidth + 0.01 { dropLastCharacter() }
        while let last = pieces.last, last.text.hasSuffix(" ") { dropLastCharacter() }
        pieces.append((ellipsisRun, "\u{2026}"))
        return Line(pieces: pieces, width: total + ellipsis)
    }

    /// How many lines fit in `height` (at least one).
    private func linesFitting(_ height: CGFloat, scale: CGFloat) -> Int {
        let one = lineHeight(Line(), scale: scale)
        let lines = ((height + lineSpacing) / max(one + lineSpacing, 0.01) + 0.001).rounded(.down)
        return lines.isFinite ? Int(min(max(lines, 1), 100_000)) : 1
    }

    private func layout(_ proposal: ProposedSize) -> Layout {
        // Heights that allow the same lines give the same layout.
        var key = LayoutKey(width: proposal.width, height: proposal.height)
        if let height = proposal.height, height.isFinite {
            key.height = CGFloat(linesFitting(height, scale: 1))
        } else {
            key.height = nil
        }
        if minimumScaleFactor < 1 { key = LayoutKey(width: proposal.width, height: proposal.height) }
        if let known = layouts.first(where: { $0.0 == key }) { return known.1 }
        let maxWidth = proposal.width ?? .infinity
        var scale: CGFloat = 1
        var result: Layout
        while true {
            var maxLines = lineLimit ?? Int.max
            if let height = proposal.height, height.isFinite {
                maxLines = min(maxLines, linesFitting(height, scale: scale))
            }
            let (lines, truncated) = breakLines(maxWidth: maxWidth, maxLines: maxLines, scale: scale)
            let width = min(lines.map(\.width).max() ?? 0, maxWidth)
            let height = lines.reduce(0) { $0 + lineHeight($1, scale: scale) } + CGFloat(max(0, lines.count - 1)) * lineSpacing
            result = Layout(lines: lines, scale: scale, size: CGSize(width: max(0, width), height: height), truncated: truncated)
            guard truncated, scale > minimumScaleFactor + 0.001 else { break }
            scale = max(minimumScaleFactor, scale - 0.05)
        }
        layouts.append((key, result))
        return result
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        layout(proposal).size
    }

    override func firstBaseline(at size: CGSize) -> CGFloat {
        let l = layout(ProposedSize(size))
        return l.lines.first.map { lineAscent($0, scale: l.scale) } ?? size.height
    }

    override func lastBaseline(at size: CGSize) -> CGFloat {
        let l = layout(ProposedSize(size))
        guard let last = l.lines.last else { return size.height }
        return l.size.height - lineHeight(last, scale: l.scale) + lineAscent(last, scale: l.scale)
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let l = layout(ProposedSize(frame.size))
        var y: CGFloat = 0
        var lines: [TextLine] = []
        for line in l.lines {
            let height = lineHeight(line, scale: l.scale)
            let offset: CGFloat =
                switch alignment {
                case .leading: 0
                case .center: (frame.width - line.width) / 2
                case .trailing: frame.width - line.width
                }
            var textRuns: [TextRun] = []
            var lastRun: Int?
            for (runIndex, text) in line.pieces {
                let run = runs[runIndex]
                let w = width(text, run: runIndex, scale: l.scale)
                defer { lastRun = runIndex }
                // Pieces of one run (its words) merge into one drawn run.
                if runIndex == lastRun, run.dynamic == nil, !run.isSymbol, var previous = textRuns.last {
                    previous.text += text
                    previous.width += Float(w)
                    textRuns[textRuns.count - 1] = previous
                    continue
                }
                var decoration = run.decoration
                if run.font.isItalic { decoration.insert(.italic) }
                if run.font.hasMonospacedDigits { decoration.insert(.monospacedDigits) }
                textRuns.append(
                    TextRun(
                        text: text, size: Float(run.font.size * l.scale), weight: run.font.weight.value,
                        design: run.font.design.payload, decoration: decoration, paint: run.paint,
                        width: Float(w), dynamic: run.dynamic))
            }
            lines.append(
                TextLine(
                    x: Float(max(0, offset)), baseline: Float(y + lineAscent(line, scale: l.scale)),
                    width: Float(line.width), runs: textRuns))
            y += height + lineSpacing
        }
        let payloadAlignment: TextLayout.Alignment =
            switch alignment {
            case .leading: .leading
            case .center: .center
            case .trailing: .trailing
            }
        var node = ViewNode(.text, frame)
        node.text = TextLayout(alignment: payloadAlignment, lines: lines)
        node.flags = flags
        emitter.leaf(node)
    }
}
