/// The actions of a notify-send command line, as libnotify keeps them: `-A NAME=Label` or `-A Label` (named by the
/// option's position among the `-A` options, from 0), both trimmed, those with an empty name or label left out. Names
/// compare without regard to case: an action given again under a name already there replaces the earlier one and
/// moves to the end.
struct NotifySendActions: Equatable, Sendable {
    /// One action: the name the server reports back and notify-send prints, and the button's label.
    struct Action: Equatable, Sendable {
        var name: String
        var label: String
    }

    /// The actions in the order the server gets them.
    private(set) var all: [Action] = []

    /// No actions.
    init() {}

    /// The actions of the `-A` values `texts`, in the order they were given.
    init(_ texts: [String]) {
        for (index, text) in texts.enumerated() {
            let name: String
            let label: String
            if let equals = text.firstIndex(of: "=") {
                name = Self.trimmed(text[..<equals])
                label = Self.trimmed(text[text.index(after: equals)...])
            } else {
                name = String(index)
                label = Self.trimmed(text[...])
            }
            guard !name.isEmpty, !label.isEmpty else { continue }
            all.removeAll { $0.name.lowercased() == name.lowercased() }
            all.append(Action(name: name, label: label))
        }
    }

    var isEmpty: Bool { all.isEmpty }

    /// The action the server names `key`, compared without regard to case as libnotify does.
    func action(named key: String) -> Action? {
        all.first { $0.name.lowercased() == key.lowercased() }
    }

    /// Whether an action other than `default` (the click on the body) is there.
    var hasButtons: Bool {
        all.contains { $0.name.lowercased() != NotifySendActions.defaultName }
    }

    /// The name of the action a click on the notification's body invokes.
    static let defaultName = "default"

    /// `text` without the white space (as C's `isspace` has it) at either end.
    private static func trimmed(_ text: Substring) -> String {
        let spaces: Set<Character> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]
        return String(text.drop { spaces.contains($0) }.reversed().drop { spaces.contains($0) }.reversed())
    }
}
