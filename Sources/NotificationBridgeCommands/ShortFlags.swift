/// `-v` and `-?`, as notify-send and many programs take them, for `--version` and `--help` (the argument parser knows
/// only the long forms and `-h`).
enum ShortFlags {
    /// `arguments` with each `-v` and `-?` before any `--` in their long form.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result = arguments
        for index in result.indices {
            switch result[index] {
            case "--": return result
            case "-v": result[index] = "--version"
            case "-?": result[index] = "--help"
            default: continue
            }
        }
        return result
    }
}
