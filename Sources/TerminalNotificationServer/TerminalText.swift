/// Makes text from a remote client safe to print on a terminal.
///
/// A notification's app name, summary, body and labels come from any program on the bus; printed as they are, an
/// escape sequence in them could move the cursor, retitle the window or hide what follows. Every control character
/// except the line breaks a caller keeps is replaced.
public enum TerminalText {
    /// `text` with every C0 and C1 control character and DEL shown as `�`; a tab becomes a space, and line breaks
    /// become spaces unless `keepingLineBreaks`.
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLineBreaks:
                result.append(scalar)
            case 0x0D:
                // A CR of a CRLF pair adds nothing; a lone one would return the cursor over what was printed.
                if !keepingLineBreaks { result.append(" ") }
            case 0x09, 0x0A:
                result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F:
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
