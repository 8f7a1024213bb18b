/// Why ``TextPrompt`` could not ask. A user who cancels the prompt is not an error: ``TextPrompt/ask(_:)`` returns
/// `nil`.
package enum TextPromptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// None of `zenity`, `kdialog`, `yad` is on the search path, and no command is configured.
    case noProgram(searchPath: String)
    /// The configured command is an empty list.
    case emptyCommand
    /// The configured command's program is not an executable file (looked up on the search path unless it holds a
    /// `/`).
    case commandNotFound(String)
    /// `zenity`, `kdialog` or `yad` was found, but there is no display (neither `WAYLAND_DISPLAY` nor `DISPLAY`) for
    /// its window.
    case noDisplay(program: String)
    /// The program exists but could not be started; `reason` is the system's.
    case cannotStart(program: String, reason: String)

    /// What went wrong and what to do, in one sentence.
    package var description: String {
        switch self {
        case .noProgram(let searchPath):
            return "no prompt program found in \(searchPath): install zenity, kdialog or yad, or configure a "
                + "prompt command"
        case .emptyCommand:
            return "the configured prompt command is empty: give the program and its arguments, "
                + "for example [\"my-prompt\", \"--reply\"]"
        case .commandNotFound(let program):
            return "the configured prompt program '\(program)' is not an executable file: "
                + "give its full path, or install it on PATH"
        case .noDisplay(let program):
            return "\(program) needs a display, and this process has neither WAYLAND_DISPLAY nor DISPLAY: start it in "
                + "the graphical session (systemctl --user import-environment WAYLAND_DISPLAY DISPLAY), or configure a "
                + "prompt command that needs none"
        case .cannotStart(let program, let reason):
            return "cannot start the prompt program '\(program)': \(reason)"
        }
    }
}
