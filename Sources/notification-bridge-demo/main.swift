import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationModel
import NotificationServerKit

// The demo: a private session bus, a notification server that shows its notifications in this terminal, and an app
// using the bridge. The user (or, with --auto, a script) picks actions; each handler prints what it received.

let auto = CommandLine.arguments.contains("--auto") || isatty(0) == 0

/// Writes to the terminal at once (print buffers when the output is not a terminal).
func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

func say(_ text: String) {
    write(text + "\n")
}

func card(_ served: ServedNotification) -> String {
    var lines = ["┌─ \(served.appName): \(served.summary)"]
    if !served.body.isEmpty { lines.append("│  \(served.body)") }
    var number = 0
    for action in served.actions where action.key != "default" {
        number += 1
        let reply = action.key == "inline-reply" ? " (type a reply)" : ""
        lines.append("│  [\(number)] \(action.label)\(reply)")
    }
    lines.append("└─ [d] dismiss")
    return lines.joined(separator: "\n")
}

let reply = NotificationAction(
    id: "reply", title: "Reply", activation: .background,
    behavior: .textInput(submitButtonTitle: "Send", placeholder: "Your answer"))
let markRead = NotificationAction(id: "mark-read", title: "Mark as Read", activation: .background)
let delete = NotificationAction(
    id: "delete", title: "Delete", activation: .background, isDestructive: true, requiresAuthentication: true)
let open = NotificationAction(id: "open", title: "Open", activation: .foreground)
let message = NotificationCategory(
    id: "message", actions: [reply, markRead, delete, open], minimalActions: [reply, delete], reportsDismissal: true)

/// What the scripted user does with each notification, in order.
let script: [(key: String, text: String?)] = [
    ("inline-reply", "On my way!"), ("mark-read", nil), ("delete", nil), ("open", nil), ("dismiss", nil),
]
let senders = ["Ann", "Bob", "Cy", "Dee", "Eve"]

func run() async throws {
    try await withPrivateBus { bus in
        say("A private session bus is up; a notification server that draws in this terminal owns it.")
        let serverConnection = try await bus.connect()
        let server = NotificationServer()
        let events = server.events()
        var profile = NotificationServerProfile.fullFeatured
        profile.serverName = "terminal"
        try await server.start(on: serverConnection, profile: profile)

        let connection = try await bus.connect()
        let center = try await DesktopNotificationCenter(
            connection: connection, systemConnection: nil,
            .init(appName: "Mail", rendering: NotificationRendering(destructiveMarker: "⚠ ")))
        try await center.setNotificationCategories([message])
        let info = await center.serverInformation()
        say("The bridge found server '\(info.name)' with \(info.capabilities.sorted().joined(separator: ", ")).")

        let handled = AsyncStream.makeStream(of: String.self)
        await center.setHandler(forCategory: "message") { response in
            var line = "→ handler for '\(response.actionID)' ran for notification \(response.notificationID)"
            if let text = response.userText { line += ", typed text: \"\(text)\"" }
            if let token = response.activationToken { line += ", activation token \(token)" }
            handled.continuation.yield(line)
        }

        var iterator = events.makeAsyncIterator()
        for (index, sender) in senders.enumerated() {
            var content = NotificationContent(title: "New message from \(sender)", body: "Lunch at 12?")
            content.categoryID = "message"
            content.userInfo = ["message-id": .number(Double(index + 1))]
            _ = try await center.post(content)
            var served: ServedNotification?
            while served == nil, let event = await iterator.next() {
                if case .notified(let notification) = event { served = notification }
            }
            guard let served else { break }
            say("")
            say(card(served))
            let buttons = served.actions.filter { $0.key != "default" }
            var choice: (key: String, text: String?)
            if auto {
                choice = script[index % script.count]
                say("  (the user picks \(choice.key))")
            } else {
                choice = ("dismiss", nil)
                while true {
                    write("  choose 1-\(buttons.count) or d: ")
                    guard let line = readLine()?.trimmingCharacters(in: .whitespaces) else { break }
                    if line == "d" { break }
                    if let number = Int(line), (1...buttons.count).contains(number) {
                        choice = (buttons[number - 1].key, nil)
                        if choice.key == "inline-reply" {
                            write("  your reply: ")
                            choice.text = readLine() ?? ""
                        }
                        break
                    }
                }
            }
            switch choice.key {
            case "dismiss": try await server.dismiss(id: served.id)
            case "inline-reply": try await server.reply(id: served.id, text: choice.text ?? "")
            default: try await server.invokeAction(id: served.id, key: choice.key)
            }
            say(try await handled.stream.first(within: .seconds(10), waitingFor: "the handler"))
        }
        await center.stop()
        await server.stop()
        await connection.close()
        await serverConnection.close()
        say("\nDone: every action reached its handler. Everything the demo started has stopped.")
    }
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("demo: \(error)\n".utf8))
    exit(1)
}
