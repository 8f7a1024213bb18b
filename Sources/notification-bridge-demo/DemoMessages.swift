import DBusCore
import NotificationBridgeAPI

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
                    ActionKeys.id.name: .string("reply"), ActionKeys.title.name: .string("Reply"),
                    ActionKeys.activation.name: .string("background"), ActionKeys.behavior.name: .string("text-input"),
                    ActionKeys.textInputButtonTitle.name: .string("Send"),
                    ActionKeys.textInputPlaceholder.name: .string("Your answer"),
                ]),
                .vardict([
                    ActionKeys.id.name: .string("mark-read"), ActionKeys.title.name: .string("Mark as Read"),
                    ActionKeys.activation.name: .string("background"),
                ]),
                .vardict([
                    ActionKeys.id.name: .string("delete"), ActionKeys.title.name: .string("Delete"),
                    ActionKeys.activation.name: .string("background"), ActionKeys.destructive.name: .boolean(true),
                    ActionKeys.authenticationRequired.name: .boolean(true),
                ]),
                .vardict([
                    ActionKeys.id.name: .string("open"), ActionKeys.title.name: .string("Open"),
                    ActionKeys.activation.name: .string("foreground"),
                ]),
            ]),
        .vardict([
            CategoryOptionKeys.minimalActions.name: .strings(["reply", "delete"]),
            CategoryOptionKeys.reportsDismissal.name: .boolean(true),
        ]),
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
                PostKeys.appName.name: .string("Mail"), PostKeys.title.name: .string(title),
                PostKeys.body.name: .string(body), PostKeys.category.name: .string("message"),
                PostKeys.userInfo.name: .string("{\"from\": \"\(sender)\"}"),
            ]
            if let delay { notification[PostKeys.delay.name] = .double(delay) }
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
