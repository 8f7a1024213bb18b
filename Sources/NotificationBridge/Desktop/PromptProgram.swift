#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A program that shows a ``TextPrompt``, and how to pass it a request.
struct PromptProgram: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case zenity
        case kdialog
        case yad
        /// A configured command: its argv as given.
        case command([String])

        var name: String {
            switch self {
            case .zenity: "zenity"
            case .kdialog: "kdialog"
            case .yad: "yad"
            case .command(let argv): argv.first ?? ""
            }
        }
    }

    let kind: Kind
    /// The file to execute.
    let executable: String

    var name: String { kind.name }

    /// The program's argv for `request`, its name first.
    ///
    /// The field always starts empty: none of the three programs has a placeholder (a hint shown in an empty field),
    /// and text put in the field would be sent as the answer by a user who only confirms. The placeholder is shown
    /// as a hint below the message instead, in the text form the program reads (``dialogText(_:)``).
    func arguments(for request: TextPromptRequest) -> [String] {
        switch kind {
        case .zenity:
            var arguments = ["zenity", "--entry", "--title=" + request.title, "--text=" + dialogText(request)]
            if !request.submitLabel.isEmpty { arguments.append("--ok-label=" + request.submitLabel) }
            return arguments
        case .kdialog:
            return ["kdialog", "--title", request.title, "--inputbox", dialogText(request)]
        case .yad:
            // yad reads "LABEL:ID" and "LABEL!ICON" in a button: keep such characters out of the label.
            let submit =
                request.submitLabel.isEmpty
                ? "OK" : String(request.submitLabel.map { $0 == ":" || $0 == "!" ? " " : $0 })
            return [
                "yad", "--entry", "--title=" + request.title, "--text=" + dialogText(request),
                "--button=" + submit + ":0", "--button=Cancel:1",
            ]
        case .command(let argv):
            return argv
        }
    }

    /// The text above the entry field, written so that the program shows the message and the placeholder exactly as
    /// given. Each program reads it its own way (from their sources):
    ///
    /// - zenity (3.44 and 4.x) passes `--text` of `--entry` through `g_strcompress` (backslash escapes) to
    ///   `gtk_label_set_text_with_mnemonic`: plain text in which `_` marks a mnemonic. No markup: the placeholder
    ///   is plain text on a line of its own.
    /// - yad passes `--text` through `g_strcompress` to `gtk_label_set_markup`: Pango markup; the placeholder is in
    ///   italics.
    /// - kdialog gives `--inputbox`'s text to a `QLabel` in `Qt::AutoText`, which takes text that looks like HTML as
    ///   rich text: the text is always given as rich text (`<qt>`), escaped, its line breaks and spaces kept, the
    ///   placeholder in italics.
    func dialogText(_ request: TextPromptRequest) -> String {
        let hint = request.placeholder
        switch kind {
        case .zenity:
            let text = hint.isEmpty ? request.message : request.message + "\n\n" + hint
            return Self.backslashEscaped(Self.mnemonicEscaped(text))
        case .yad:
            var text = Self.markupEscaped(request.message)
            if !hint.isEmpty { text += "\n\n<i>" + Self.markupEscaped(hint) + "</i>" }
            return Self.backslashEscaped(text)
        case .kdialog:
            var paragraphs = [Self.markupEscaped(request.message)]
            if !hint.isEmpty { paragraphs.append("<i>" + Self.markupEscaped(hint) + "</i>") }
            return "<qt>" + paragraphs.map { "<p style=\"white-space:pre-wrap\">" + $0 + "</p>" }.joined() + "</qt>"
        case .command:
            return request.message
        }
    }

    /// `text` for a GTK label with a mnemonic: each `_` doubled, so that none underlines the next letter.
    static func mnemonicEscaped(_ text: String) -> String {
        text.replacing("_", with: "__")
    }

    /// `text` for `g_strcompress`, which reads `\n`, `\t` and other backslash escapes: each `\` doubled.
    static func backslashEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\")
    }

    /// `text` for Pango markup or Qt rich text: `&`, `<`, `>` and `"` as entities.
    static func markupEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
    /// The program's environment: this process's, plus the request for a configured command.
    func environment(for request: TextPromptRequest) -> [String] {
        var lines: [String] = []
        var entry = environ
        while let line = entry.pointee {
            lines.append(String(cString: line))
            entry += 1
        }
        guard case .command = kind else { return lines }
        let prompt = [
            "NOTIFICATION_PROMPT_TITLE=" + request.title, "NOTIFICATION_PROMPT_MESSAGE=" + request.message,
            "NOTIFICATION_PROMPT_PLACEHOLDER=" + request.placeholder,
            "NOTIFICATION_PROMPT_SUBMIT=" + request.submitLabel,
        ]
        return lines.filter { !$0.hasPrefix("NOTIFICATION_PROMPT_") } + prompt
    }
}
