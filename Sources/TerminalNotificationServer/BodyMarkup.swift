/// Renders a notification body in the markup of the Desktop Notifications Specification for a terminal.
///
/// The specification allows `<b>`, `<i>`, `<u>`, `<a href="…">` and `<img src="…" alt="…"/>`, and the five XML
/// entities. Here bold, italics and underline become terminal attributes (nothing without colour), a link keeps its
/// text and shows its address after it, an image shows its `alt` text, `<br>` breaks the line, and any other tag
/// is dropped with its text kept — as the servers that advertise `body-markup` do. A `<` that starts no tag stays as
/// it is. The result holds no control characters but line breaks (see ``TerminalText``).
public struct BodyMarkup: Sendable {
    /// The style the attributes are written in.
    public var style: TerminalStyle

    /// Makes a renderer.
    public init(style: TerminalStyle) {
        self.style = style
    }

    /// `body` as terminal text, one element per line.
    public func lines(of body: String) -> [String] {
        render(body).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `body` as terminal text; lines are separated by `\n`.
    public func render(_ body: String) -> String {
        var state = RenderState(style: style)
        var rest = body[...]
        while let open = rest.firstIndex(of: "<") {
            state.appendText(String(rest[..<open]))
            rest = rest[open...]
            guard let close = rest.firstIndex(of: ">"), let tag = Tag(String(rest[rest.index(after: open)..<close]))
            else {
                state.appendText("<")
                rest = rest.dropFirst()
                continue
            }
            state.apply(tag)
            rest = rest[rest.index(after: close)...]
        }
        state.appendText(String(rest))
        state.closeAll()
        return state.output
    }

    /// One tag: its lowercased name, whether it closes, and its attributes.
    struct Tag {
        var name: String
        var isClosing: Bool
        var attributes: [String: String]

        /// Reads the inside of `<…>`; `nil` when it is not a tag (`a < b > c`, say).
        init?(_ inside: String) {
            var text = inside[...]
            isClosing = text.first == "/"
            if isClosing { text = text.dropFirst() }
            if text.last == "/" { text = text.dropLast() }
            let nameEnd = text.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) ?? text.endIndex
            let name = text[..<nameEnd]
            guard let first = name.first, first.isLetter, name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                return nil
            }
            self.name = name.lowercased()
            attributes = Self.attributes(in: text[nameEnd...])
        }

        /// `key="value"` and `key='value'` pairs, values with their entities decoded.
        private static func attributes(in text: Substring) -> [String: String] {
            var result: [String: String] = [:]
            var rest = text
            while let equals = rest.firstIndex(of: "=") {
                let key = rest[..<equals].trimmingWhitespace().lowercased()
                rest = rest[rest.index(after: equals)...].drop(while: { $0 == " " })
                guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
                rest = rest.dropFirst()
                guard let end = rest.firstIndex(of: quote) else { break }
                result[key] = Entities.decode(String(rest[..<end]))
                rest = rest[rest.index(after: end)...]
            }
            return result
        }
    }

    /// What is open while rendering, and the text so far.
    private struct RenderState {
        let style: TerminalStyle
        var output = ""
        var bold = 0
        var italic = 0
        var underline = 0
        /// The addresses of the open links, innermost last.
        var links: [String] = []

        init(style: TerminalStyle) {
            self.style = style
        }

        mutating func appendText(_ text: String) {
            output += TerminalText.sanitized(Entities.decode(text), keepingLineBreaks: true)
        }

        mutating func apply(_ tag: Tag) {
            switch (tag.name, tag.isClosing) {
            case ("b", _): toggle(\.bold, opening: !tag.isClosing, on: "1", off: "22")
            case ("i", _): toggle(\.italic, opening: !tag.isClosing, on: "3", off: "23")
            case ("u", _): toggle(\.underline, opening: !tag.isClosing, on: "4", off: "24")
            case ("a", false):
                links.append(tag.attributes["href"] ?? "")
                toggle(\.underline, opening: true, on: "4", off: "24")
            case ("a", true):
                guard let href = links.popLast() else { return }
                toggle(\.underline, opening: false, on: "4", off: "24")
                if !href.isEmpty { output += " " + style.dim("<\(TerminalText.sanitized(href))>") }
            case ("img", false):
                let alt = tag.attributes["alt"].flatMap { $0.isEmpty ? nil : $0 } ?? tag.attributes["src"] ?? ""
                output += style.dim("[image\(alt.isEmpty ? "" : ": " + TerminalText.sanitized(alt))]")
            case ("br", _):
                output += "\n"
            default:
                break
            }
        }

        /// Counts nesting, and writes the attribute only when it starts or ends, so `<b><b>x</b>y</b>` stays bold.
        private mutating func toggle(
            _ depth: WritableKeyPath<RenderState, Int>, opening: Bool, on: String, off: String
        ) {
            if opening {
                self[keyPath: depth] += 1
                if self[keyPath: depth] == 1 && style.usesColor { output += "\u{1B}[\(on)m" }
            } else if self[keyPath: depth] > 0 {
                self[keyPath: depth] -= 1
                if self[keyPath: depth] == 0 && style.usesColor { output += "\u{1B}[\(off)m" }
            }
        }

        /// Ends what the body left open, so the next line starts plain.
        mutating func closeAll() {
            for href in links.reversed() where !href.isEmpty {
                output += " " + style.dim("<\(TerminalText.sanitized(href))>")
            }
            links = []
            if style.usesColor && (bold > 0 || italic > 0 || underline > 0) { output += "\u{1B}[0m" }
        }
    }
}

/// The XML entities the specification allows in a body, and numeric character references.
enum Entities {
    private static let named: [Substring: String] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'",
    ]

    /// `text` with `&lt;`, `&#60;`, `&#x3C;` and the like replaced; an `&` that starts none of them stays.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            let limit = rest.index(rest.startIndex, offsetBy: 12, limitedBy: rest.endIndex) ?? rest.endIndex
            if let semicolon = rest[..<limit].firstIndex(of: ";"),
                let decoded = character(for: rest[rest.index(after: rest.startIndex)..<semicolon])
            {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func character(for name: Substring) -> String? {
        if let known = named[name] { return known }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X"
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
