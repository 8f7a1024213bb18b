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
    /// as a hint below the message instead.
    func arguments(for request: TextPromptRequest) -> [String] {
        switch kind {
        case .zenity:
            var arguments = ["zenity", "--entry", "--title=" + request.title, "--text=" + Self.markupText(request)]
            if !request.submitLabel.isEmpty { arguments.append("--ok-label=" + request.submitLabel) }
            return arguments
        case .kdialog:
            let text = request.placeholder.isEmpty ? request.message : request.message + "\n\n" + request.placeholder
            return ["kdialog", "--title", request.title, "--inputbox", text]
        case .yad:
            // yad reads "LABEL:ID" and "LABEL!ICON" in a button: keep such characters out of the label.
            let submit =
                request.submitLabel.isEmpty
                ? "OK" : String(request.submitLabel.map { $0 == ":" || $0 == "!" ? " " : $0 })
            return [
                "yad", "--entry", "--title=" + request.title, "--text=" + Self.markupText(request),
                "--button=" + submit + ":0", "--button=Cancel:1",
            ]
        case .command(let argv):
            return argv
        }
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

    /// The dialog text for zenity and yad, which read it as Pango markup: the message escaped so that it shows as
    /// written, and the placeholder below it in italics.
    static func markupText(_ request: TextPromptRequest) -> String {
        let message = markupEscaped(request.message)
        guard !request.placeholder.isEmpty else { return message }
        return message + "\n\n<i>" + markupEscaped(request.placeholder) + "</i>"
    }

    static func markupEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
