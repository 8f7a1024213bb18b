/// How text is dressed on the terminal: ANSI attributes when colour is on, plain text when it is off.
///
/// Colour follows the usual conventions: off when `NO_COLOR` is set to anything non-empty or when the output is not a
/// terminal, unless the user forces it.
public struct TerminalStyle: Sendable, Hashable {
    /// Whether escape sequences are written.
    public var usesColor: Bool

    /// Makes a style.
    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// The style for `choice` given the environment and whether standard output is a terminal.
    ///
    /// - Parameters:
    ///   - choice: what the user asked for on the command line.
    ///   - environment: the process environment (only `NO_COLOR` is read).
    ///   - outputIsTerminal: whether standard output is a terminal.
    public static func resolve(
        _ choice: ColorChoice, environment: [String: String], outputIsTerminal: Bool
    ) -> TerminalStyle {
        switch choice {
        case .always: TerminalStyle(usesColor: true)
        case .never: TerminalStyle(usesColor: false)
        case .auto: TerminalStyle(usesColor: outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
        }
    }

    /// When to use colour.
    public enum ColorChoice: String, Sendable, CaseIterable {
        /// On a terminal, unless `NO_COLOR` is set.
        case auto
        /// Always, even into a pipe.
        case always
        /// Never.
        case never
    }

    /// `text` in bold.
    public func bold(_ text: String) -> String { wrap(text, "1", "22") }
    /// `text` faint, for secondary information.
    public func dim(_ text: String) -> String { wrap(text, "2", "22") }
    /// `text` in italics.
    public func italic(_ text: String) -> String { wrap(text, "3", "23") }
    /// `text` underlined.
    public func underline(_ text: String) -> String { wrap(text, "4", "24") }
    /// `text` in red, for destructive actions and urgent notifications.
    public func red(_ text: String) -> String { wrap(text, "31", "39") }
    /// `text` in cyan, for the notification header.
    public func cyan(_ text: String) -> String { wrap(text, "36", "39") }

    /// Starts and ends an attribute with its own reset code, so attributes nest (bold inside a red label).
    private func wrap(_ text: String, _ on: String, _ off: String) -> String {
        guard usesColor, !text.isEmpty else { return text }
        return "\u{1B}[\(on)m\(text)\u{1B}[\(off)m"
    }
}
