import SandglassIPC

extension Text {
    /// The text's pieces resolved in the environment of `context`: fonts, paints, dates
    /// formatted, and the dynamic dates resolved at the entry's date.
    @MainActor
    func resolvedRuns(_ context: ResolveContext) -> [ResolvedRun] {
        let environment = context.environment
        let inherited = environment.textStyle
        return segments.map { segment in
            let style = segment.style.over(inherited)
            var font = style.font ?? environment.font ?? .body
            if let weight = style.weight { font.weight = weight }
            if let design = style.design { font.design = design }
            if style.italic == true { font.isItalic = true }
            if style.monospacedDigit == true { font.hasMonospacedDigits = true }
            let paint = style.foreground?.paint(in: environment) ?? environment.foregroundPaint
            var decoration: TextRun.Decoration = []
            if style.underline == true { decoration.insert(.underline) }
            if style.strikethrough == true { decoration.insert(.strikethrough) }
            var run = ResolvedRun(text: "", font: font, paint: paint, decoration: decoration)
            switch segment.content {
            case .verbatim(let string):
                run.text = environment.textCase.map { $0 == .uppercase ? string.uppercased() : string.lowercased() } ?? string
            case .symbol(let name):
                run.text = name
                run.decoration.insert(.symbol)
            case .date(let date, let dateStyle):
                switch dateStyle.kind {
                case .time, .date:
                    run.text = Text.absolute(date, dateStyle, environment)
                case .relative:
                    run.dynamic = DynamicText(style: .relative, date: date.timeIntervalSince1970)
                case .offset:
                    run.dynamic = DynamicText(style: .offset, date: date.timeIntervalSince1970)
                case .timer:
                    run.dynamic = DynamicText(style: .timer, date: date.timeIntervalSince1970)
                }
            case .timer(let interval, let pauseTime, let countsDown, let showsHours):
                run.dynamic = DynamicText(
                    style: .timerInterval, date: interval.lowerBound.timeIntervalSince1970,
                    end: interval.upperBound.timeIntervalSince1970, countsDown: countsDown,
                    showsHours: showsHours, pauseTime: pauseTime?.timeIntervalSince1970)
            }
            if let dynamic = run.dynamic {
                run.text = dynamic.text(at: context.session.date.timeIntervalSince1970)
            }
            return run
        }
    }

    /// `.time` (`11:23 AM`) or `.date` (`June 3, 2019`) in the environment's locale and zone.
    static func absolute(_ date: Date, _ style: DateStyle, _ environment: EnvironmentValues) -> String {
        let formatter = DateFormatter()
        formatter.locale = environment.locale
        formatter.timeZone = environment.timeZone
        formatter.calendar = environment.calendar
        formatter.dateStyle = style.kind == .date ? .long : .none
        formatter.timeStyle = style.kind == .time ? .short : .none
        return formatter.string(from: date)
    }
}
