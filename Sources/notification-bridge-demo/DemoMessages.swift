import DBusCore

/// The app the demo plays: a mail client that registers a "message" category and receives four messages.
enum DemoMessages {
    /// The category: Reply (typed text, background), Mark as Read (background), Delete (destructive, needs the
    /// session unlocked), Open (foreground: raises the app, so its response carries an activation token).
    static let category: [DBusValue] = [
        .string("message"),
        .array(
            element: "a{sv}",
            [
                .vardict([
                    "id": .string("reply"), "title": .string("Reply"), "activation": .string("background"),
                    "behavior": .string("text-input"), "text-input-button-title": .string("Send"),
                    "text-input-placeholder": .string("Your answer"),
                ]),
                .vardict([
                    "id": .string("mark-read"), "title": .string("Mark as Read"), "activation": .string("background"),
                ]),
                .vardict([
                    "id": .string("delete"), "title": .string("Delete"), "activation": .string("background"),
                    "destructive": .boolean(true), "authentication-required": .boolean(true),
                ]),
                .vardict(["id": .string("open"), "title": .string("Open"), "activation": .string("foreground")]),
            ]),
        .vardict(["minimal-actions": .strings(["reply", "delete"]), "reports-dismissal": .boolean(true)]),
    ]

    /// One message: who sends it, when it shows, and what the scripted user does with it.
    struct Message: Sendable {
        var sender: String
        var body: String
        /// Seconds from now, or `nil` to show it at once.
        var delay: Double?
        /// The action the scripted user chooses.
        var action: String
        /// The label of its button (`nil` for the reply field).
        var button: String?
        /// The text the scripted user types.
        var text: String?

        var title: String { "Message from \(sender)" }

        /// The `Post` argument.
        var post: DBusValue {
            var notification: [String: DBusValue] = [
                "app-name": .string("Mail"), "title": .string(title), "body": .string(body),
                "category": .string("message"), "user-info": .string("{\"from\": \"\(sender)\"}"),
            ]
            if let delay { notification["in"] = .double(delay) }
            return .vardict(notification)
        }
    }

    /// Two messages now and two scheduled a few seconds later, each answered in a different way by the script.
    static let messages = [
        Message(sender: "Ann", body: "Lunch at 12?", action: "reply", text: "On my way!"),
        Message(sender: "Bob", body: "The build is green again.", action: "mark-read", button: "Mark as Read"),
        Message(
            sender: "Cy", body: "Last chance: 90% off watches!", delay: 3, action: "delete", button: "Delete"),
        Message(sender: "Dee", body: "Can you look at my draft?", delay: 5, action: "open", button: "Open"),
    ]
}
