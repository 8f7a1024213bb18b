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
    func arguments(for request: TextPromptRequest) -> [String] {
        switch kind {
        case .zenity:
            // zenity and yad read --text as Pango markup: escape it so that the text shows as written.
            var arguments = [
                "zenity", "--entry", "--title=" + request.title, "--text=" + Self.markupEscaped(request.message),
                "--entry-text=" + request.placeholder,
            ]
            if !request.submitLabel.isEmpty { arguments.append("--ok-label=" + request.submitLabel) }
            return arguments
        case .kdialog:
            var arguments = ["kdialog", "--title", request.title, "--inputbox", request.message]
            // The initial text is a positional argument: keep one that starts with '-' from reading as an option.
            if request.placeholder.hasPrefix("-") { arguments.append("--") }
            arguments.append(request.placeholder)
            return arguments
        case .yad:
            // yad reads "LABEL:ID" and "LABEL!ICON" in a button: keep such characters out of the label.
            let submit = request.submitLabel.isEmpty
                ? "OK" : String(request.submitLabel.map { $0 == ":" || $0 == "!" ? " " : $0 })
            return [
                "yad", "--entry", "--title=" + request.title, "--text=" + Self.markupEscaped(request.message),
                "--entry-text=" + request.placeholder, "--button=" + submit + ":0", "--button=Cancel:1",
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
