/// Escaping of plain text for servers that read a small subset of HTML in notification bodies.
package enum MarkupEscaping {
    /// `text` with `&`, `<` and `>` written as entities, so it shows as typed on a `body-markup` server.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
