import Foundation

/// Just enough YAML to read the repository's Kubernetes manifests in tests: block mappings,
/// block sequences (of scalars or mappings), plain and quoted scalars, flow sequences of
/// scalars (`["a", "b"]`), comments. Anything else is an error, so a manifest that outgrows
/// it fails loudly rather than being misread.
enum MiniYAML {
    indirect enum Node: Equatable {
        case scalar(String)
        case list([Node])
        case map([(String, Node)])

        static func == (a: Node, b: Node) -> Bool {
            switch (a, b) {
            case (.scalar(let x), .scalar(let y)): x == y
            case (.list(let x), .list(let y)): x == y
            case (.map(let x), .map(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
            default: false
            }
        }

        subscript(key: String) -> Node? {
            if case .map(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
            return nil
        }

        var string: String? { if case .scalar(let s) = self { return s }; return nil }
        var int: Int? { string.flatMap { Int($0) } }
        var list: [Node]? { if case .list(let l) = self { return l }; return nil }
        var strings: [String]? { list?.compactMap(\.string) }
    }

    struct Error: Swift.Error, CustomStringConvertible {
        let description: String
    }

    private struct Line {
        let number: Int
        let indent: Int
        let text: String
    }

    static func parse(_ text: String) throws -> Node {
        var lines: [Line] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let stripped = stripComment(String(raw))
            guard !stripped.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let indent = stripped.prefix { $0 == " " }.count
            if stripped.contains("\t") { throw Error(description: "line \(i + 1): tabs") }
            lines.append(Line(number: i + 1, indent: indent, text: String(stripped.dropFirst(indent))))
        }
        var index = 0
        let node = try block(&index, lines, indent: 0)
        if index != lines.count { throw Error(description: "line \(lines[index].number): unexpected indentation") }
        return node
    }

    private static func block(_ i: inout Int, _ lines: [Line], indent: Int) throws -> Node {
        guard i < lines.count else { return .scalar("") }
        return lines[i].text.hasPrefix("- ") || lines[i].text == "-"
            ? try sequence(&i, lines, indent: lines[i].indent)
            : try mapping(&i, lines, indent: lines[i].indent)
    }

    private static func sequence(_ i: inout Int, _ lines: [Line], indent: Int) throws -> Node {
        var items: [Node] = []
        while i < lines.count, lines[i].indent == indent, lines[i].text.hasPrefix("-") {
            let rest = String(lines[i].text.dropFirst(1)).trimmingCharacters(in: .whitespaces)
            let number = lines[i].number
            if rest.isEmpty {
                i += 1
                items.append(try block(&i, lines, indent: indent + 1))
            } else if keyColon(rest) != nil {
                // "- key: value" starts a mapping whose keys sit two columns in.
                let childIndent = indent + 2
                var rewritten = lines
                rewritten[i] = Line(number: number, indent: childIndent, text: rest)
                items.append(try mapping(&i, rewritten, indent: childIndent))
            } else {
                items.append(try scalar(rest, line: number))
                i += 1
            }
        }
        return .list(items)
    }

    private static func mapping(_ i: inout Int, _ lines: [Line], indent: Int) throws -> Node {
        var pairs: [(String, Node)] = []
        while i < lines.count, lines[i].indent == indent {
            let line = lines[i]
            guard let colon = keyColon(line.text) else { throw Error(description: "line \(line.number): expected key: value") }
            let key = unquote(String(line.text[..<colon]))
            let value = String(line.text[line.text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            i += 1
            if value.isEmpty {
                if i < lines.count, lines[i].indent > indent || (lines[i].indent == indent && lines[i].text.hasPrefix("- ")) {
                    pairs.append((key, try block(&i, lines, indent: lines[i].indent)))
                } else {
                    pairs.append((key, .scalar("")))
                }
            } else if value == "|" || value == ">" {
                throw Error(description: "line \(line.number): block scalars are not supported")
            } else {
                pairs.append((key, try scalar(value, line: line.number)))
            }
        }
        return .map(pairs)
    }

    private static func scalar(_ text: String, line: Int) throws -> Node {
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { throw Error(description: "line \(line): unterminated flow sequence") }
            let inner = text.dropFirst().dropLast()
            return .list(inner.split(separator: ",").map { .scalar(unquote($0.trimmingCharacters(in: .whitespaces))) })
        }
        if text.hasPrefix("{") { throw Error(description: "line \(line): flow mappings are not supported") }
        return .scalar(unquote(text))
    }

    private static func unquote(_ text: String) -> String {
        if text.count >= 2, (text.hasPrefix("\"") && text.hasSuffix("\"")) || (text.hasPrefix("'") && text.hasSuffix("'")) {
            return String(text.dropFirst().dropLast())
        }
        return text
    }

    /// The colon ending a mapping key (outside quotes, followed by a space or the line's end).
    private static func keyColon(_ text: String) -> String.Index? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func stripComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#" && previous == " " {
                return String(line.prefix(offset))
            }
            previous = c
        }
        return line
    }
}
