/// notify-send's `-h TYPE:NAME:VALUE`: `-h` is help here, but followed by a value that starts as notify-send's hint
/// form (`TYPE:`) it can only mean a hint, so it is read as `--hint` (a script written for notify-send would otherwise
/// print the help, send nothing and succeed). A malformed one then gets the hint's own error, as with notify-send.
enum NotifySendHints {
    /// `arguments` with each `-h` that is followed by `TYPE:…` (before any `--`) turned into `--hint`.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result = arguments
        var index = 0
        while index < result.count - 1, result[index] != "--" {
            if result[index] == "-h", isHint(result[index + 1]) { result[index] = "--hint" }
            index += 1
        }
        return result
    }

    /// Whether `text` starts with one of notify-send's hint types and `:`, well formed or not.
    static func isHint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 && HintSpec.notifySendTypes.contains(String(parts[0]))
    }
}
