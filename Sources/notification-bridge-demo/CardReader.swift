/// Reads the notifications `notification-terminal-server` draws, line by line, as a script would: the `┌─ #ID`
/// header, the title, the `[N] label` buttons, up to the closing `└─` line.
struct CardReader {
    /// A notification as drawn.
    struct Card: Sendable {
        var id: UInt32
        var title = ""
        /// Label (without marker) → number.
        var buttons: [String: Int] = [:]
        var hasReplyField = false
    }

    private var current: Card?

    /// Takes one line of output; returns the card it completes, if any.
    mutating func read(_ line: String) -> Card? {
        let text = Self.withoutEscapes(line)
        if text.hasPrefix("┌─ #") {
            let digits = text.dropFirst(4).prefix(while: \.isNumber)
            current = UInt32(digits).map { Card(id: $0) }
            return nil
        }
        guard var card = current else { return nil }
        if text.hasPrefix("└─") {
            current = nil
            return card
        }
        guard text.hasPrefix("│ ") else { return nil }
        let content = text.dropFirst(2)
        if content.hasPrefix("[reply]") {
            card.hasReplyField = true
        } else if content.hasPrefix("["), let close = content.firstIndex(of: "]"),
            let number = Int(content[content.index(after: content.startIndex)..<close])
        {
            var label = content[content.index(after: close)...].drop(while: { $0 == " " || $0 == "⚠" })
            if label.hasSuffix(" (destructive)") { label = label.dropLast(" (destructive)".count) }
            card.buttons[String(label)] = number
        } else if card.title.isEmpty {
            card.title = String(content)
        }
        current = card
        return nil
    }

    /// `text` without ANSI escape sequences.
    static func withoutEscapes(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var result = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
