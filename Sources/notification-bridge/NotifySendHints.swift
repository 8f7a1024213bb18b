/// notify-send's `-h TYPE:NAME:VALUE`: `-h` is help here, but followed by a value in notify-send's hint form it can
/// only mean a hint, so it is read as `--hint` (a script written for notify-send would otherwise print the help and
/// send nothing).
enum NotifySendHints {
    /// `arguments` with each `-h` that is followed by `TYPE:NAME:VALUE` (before any `--`) turned into `--hint`.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result = arguments
        var index = 0
        while index < result.count - 1, result[index] != "--" {
            if result[index] == "-h", isHint(result[index + 1]) { result[index] = "--hint" }
            index += 1
        }
        return result
    }

    /// Whether `text` starts with one of notify-send's hint types, then `:NAME:`.
    static func isHint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 && HintSpec.notifySendTypes.contains(String(parts[0])) && !parts[1].isEmpty
    }
}
