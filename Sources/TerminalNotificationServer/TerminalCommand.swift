/// One line the user typed, understood.
///
/// A notification is named by its number, written `#3` (or `3` where no other number can follow). Where it is left
/// out, the command acts on the newest notification showing.
public enum TerminalCommand: Sendable, Hashable {
    /// Choose a button, by its number or by its action key or label.
    case choose(NotificationReference, button: ButtonChoice)
    /// Click the body: the `default` action.
    case open(NotificationReference)
    /// Send text from the inline reply field.
    case reply(NotificationReference, text: String)
    /// Close a notification as its close button would.
    case dismiss(NotificationReference)
    /// Close every notification showing.
    case dismissAll
    /// Draw a notification again.
    case show(NotificationReference)
    /// One line per notification showing.
    case list
    /// The commands.
    case help
    /// Stop serving and exit.
    case quit
    /// An empty line: nothing to do.
    case nothing

    /// Which notification a command is about.
    public enum NotificationReference: Sendable, Hashable {
        /// The newest notification showing.
        case newest
        /// The notification with this id.
        case id(UInt32)
    }

    /// Which button.
    public enum ButtonChoice: Sendable, Hashable {
        /// Its number, from 1.
        case number(Int)
        /// Its action key, or its label (compared without case).
        case name(String)
    }

    /// The text of `help`.
    public static let helpText = """
        Commands (ID is a notification's number, as in #3; without it, the newest one):
          N  or  #ID N           choose button N (also by name: #ID mark-read)
          reply [#ID] TEXT       send TEXT from the reply field
          open [ID]              click the notification (its default action)
          dismiss [ID]  or  d    close it, as its close button would; 'dismiss all' closes every one
          list  or  ls           what is showing
          show [ID]              draw a notification again
          help  or  ?            this list
          quit  or  q            stop serving (so do Ctrl-D, Ctrl-C and SIGTERM)
        """

    /// Reads one line.
    ///
    /// - Throws: ``TerminalCommandError`` saying what was wrong and what to type instead.
    public init(parsing line: String) throws(TerminalCommandError) {
        let trimmed = line.trimmingWhitespace()
        var words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
        guard let first = words.popFirst() else {
            self = .nothing
            return
        }
        if Int(first) != nil {
            // "2" chooses button 2 of the newest; "3 2" button 2 of #3.
            guard let second = words.popFirst() else {
                self = .choose(.newest, button: try Self.button(first, rest: []))
                return
            }
            self = .choose(try Self.id(first), button: try Self.button(second, rest: words))
            return
        }
        if first.hasPrefix("#") {
            let reference = try Self.id(first)
            guard let second = words.popFirst() else {
                self = .show(reference)
                return
            }
            self = .choose(reference, button: try Self.button(second, rest: words))
            return
        }
        switch first.lowercased() {
        case "help", "h", "?":
            self = .help
        case "list", "ls", "l":
            try Self.noMore(words, after: first)
            self = .list
        case "quit", "q", "exit":
            try Self.noMore(words, after: first)
            self = .quit
        case "open", "o":
            self = .open(try Self.optionalID(&words, command: first))
        case "show", "s":
            self = .show(try Self.optionalID(&words, command: first))
        case "dismiss", "d", "close":
            if words.first?.lowercased() == "all" {
                words.removeFirst()
                try Self.noMore(words, after: "\(first) all")
                self = .dismissAll
            } else {
                self = .dismiss(try Self.optionalID(&words, command: first))
            }
        case "choose", "action", "a":
            var reference = NotificationReference.newest
            if let word = words.first, word.hasPrefix("#") || (words.count > 1 && Int(word) != nil) {
                reference = try Self.id(word)
                words.removeFirst()
            }
            guard let button = words.popFirst() else {
                throw TerminalCommandError("'\(first)' needs a button: '\(first) 2' or '\(first) #3 2'")
            }
            self = .choose(reference, button: try Self.button(button, rest: words))
        case "reply", "r":
            // The text is the rest of the line as typed, inner spaces included.
            var text = trimmed.dropFirst(first.count).drop(while: { $0 == " " || $0 == "\t" })
            var reference = NotificationReference.newest
            if let word = words.first, word.hasPrefix("#") {
                reference = try Self.id(word)
                text = text.dropFirst(word.count).drop(while: { $0 == " " || $0 == "\t" })
            }
            guard !text.isEmpty else {
                throw TerminalCommandError("'reply' needs the text to send: 'reply On my way' or 'reply #3 On my way'")
            }
            self = .reply(reference, text: String(text))
        default:
            throw TerminalCommandError("unknown command '\(first)'; type 'help' for the commands")
        }
    }

    private static func id(_ word: String) throws(TerminalCommandError) -> NotificationReference {
        let digits = word.hasPrefix("#") ? word.dropFirst() : word[...]
        guard let id = UInt32(digits), id > 0 else {
            throw TerminalCommandError("'\(word)' is not a notification number; write it as #3 ('list' shows them)")
        }
        return .id(id)
    }

    private static func optionalID(
        _ words: inout ArraySlice<String>, command: String
    ) throws(TerminalCommandError) -> NotificationReference {
        guard let word = words.popFirst() else { return .newest }
        try noMore(words, after: "\(command) \(word)")
        return try id(word)
    }

    private static func button(
        _ word: String, rest: ArraySlice<String>
    ) throws(TerminalCommandError) -> ButtonChoice {
        if let number = Int(word) {
            try noMore(rest, after: word)
            guard number > 0 else { throw TerminalCommandError("buttons are numbered from 1") }
            return .number(number)
        }
        return .name(([word] + rest).joined(separator: " "))
    }

    private static func noMore(_ words: ArraySlice<String>, after what: String) throws(TerminalCommandError) {
        guard let extra = words.first else { return }
        throw TerminalCommandError("unexpected '\(extra)' after '\(what)'; type 'help' for the commands")
    }
}

/// A line that is not a command; the message says what to type instead.
public struct TerminalCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what to do.
    public let description: String

    /// Makes an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}
