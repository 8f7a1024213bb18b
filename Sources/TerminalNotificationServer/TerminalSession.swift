import NotificationServerKit

/// What the terminal server does with each thing that happens: a notification arriving, changing or closing, and a
/// line the user typed. One instance, used by one loop, in order.
final class TerminalSession {
    private let server: NotificationServer
    private let output: TerminalOutput
    private let configuration: TerminalServerConfiguration
    private let card: NotificationCard
    /// Live ids, the most recently shown last: what a command without an id acts on.
    private var recent: [UInt32] = []
    /// Ids closed by the user's own command here: their closing is already reported.
    private var closedHere: Set<UInt32> = []

    init(server: NotificationServer, output: TerminalOutput, configuration: TerminalServerConfiguration) {
        self.server = server
        self.output = output
        self.configuration = configuration
        card = NotificationCard(style: configuration.style, destructiveMarker: configuration.destructiveMarker)
    }

    private var style: TerminalStyle { configuration.style }

    /// Shows the prompt, when there is one.
    func prompt() {
        if configuration.showsPrompt { output.write("> ") }
    }

    // MARK: Events

    func handle(_ event: NotificationServerEvent) async {
        switch event {
        case .notified(let notification):
            recent.append(notification.id)
            output.write(lines: [""] + (await lines(of: notification)))
        case .replaced(let previous, let current):
            recent.removeAll { $0 == previous.id || $0 == current.id }
            recent.append(current.id)
            output.write(lines: [""] + (await lines(of: current, note: "updated")))
        case .closed(let notification, let reason):
            recent.removeAll { $0 == notification.id }
            guard closedHere.remove(notification.id) == nil else { return }
            let why =
                switch reason {
                case .expired: "expired"
                case .closedByCall: "was withdrawn by its app"
                case .dismissed: "was dismissed"
                default: "closed (\(reason))"
                }
            output.line(style.dim("✕ #\(notification.id) \(why)") + " " + title(of: notification))
        case .refused(let call, let failure):
            output.line(style.red("! refused a \(call.member) from \(call.sender): \(failure.message)"))
        case .held(let sender):
            output.line(style.dim("… holding a Notify from \(sender) unanswered"))
        }
        prompt()
    }

    private func lines(of notification: ServedNotification, note: String? = nil) async -> [String] {
        card.lines(
            for: notification, buttons: await buttons(of: notification),
            hasReplyField: configuration.profile.supportsInlineReply, note: note)
    }

    private func buttons(of notification: ServedNotification) async -> [TerminalButton] {
        TerminalButton.buttons(
            of: notification, keys: await server.buttons(of: notification),
            destructiveMarker: configuration.destructiveMarker)
    }

    private func title(of notification: ServedNotification) -> String {
        let app = TerminalText.sanitized(notification.appName)
        let summary = TerminalText.sanitized(notification.summary)
        return style.dim(app.isEmpty ? summary : "\(app) · \(summary)")
    }

    // MARK: Commands

    /// Runs one typed line; returns `false` when the user asked to quit.
    func handle(line: String) async -> Bool {
        defer { prompt() }
        do {
            let command = try TerminalCommand(parsing: line)
            return try await run(command)
        } catch {
            // A TerminalCommandError or a NotificationServerError: both say what to do instead.
            output.line(style.red("! \(error)"))
        }
        return true
    }

    private func run(_ command: TerminalCommand) async throws -> Bool {
        switch command {
        case .nothing:
            break
        case .help:
            output.line(TerminalCommand.helpText)
        case .quit:
            return false
        case .list:
            await list()
        case .show(let reference):
            let notification = try await live(reference)
            output.write(lines: await lines(of: notification))
        case .choose(let reference, let choice):
            let notification = try await live(reference)
            let button = try await button(choice, of: notification)
            try await act(on: notification) { try await $0.invokeAction(id: notification.id, key: button.key) }
            output.line("→ #\(notification.id): \(button.isDestructive ? "⚠ " : "")\(button.label)")
        case .open(let reference):
            let notification = try await live(reference)
            guard notification.action("default") != nil else {
                throw TerminalCommandError(
                    "#\(notification.id) does nothing when clicked (its app gave it no default action); "
                        + "choose a button or dismiss it")
            }
            try await act(on: notification) { try await $0.invokeAction(id: notification.id, key: "default") }
            output.line("→ #\(notification.id): opened")
        case .reply(let reference, let text):
            let notification = try await live(reference)
            guard notification.action("inline-reply") != nil else {
                let count = await buttons(of: notification).count
                throw TerminalCommandError(
                    "#\(notification.id) has no reply field; "
                        + (count > 0 ? "choose a button (1-\(count)) or dismiss it" : "dismiss it"))
            }
            // The text goes to the app only; it is not repeated here.
            try await act(on: notification) { try await $0.reply(id: notification.id, text: text) }
            output.line("→ #\(notification.id): reply sent")
        case .dismiss(let reference):
            let notification = try await live(reference)
            try await act(on: notification) { try await $0.dismiss(id: notification.id) }
            output.line("→ #\(notification.id): dismissed")
        case .dismissAll:
            let all = await server.notifications
            guard !all.isEmpty else { throw TerminalCommandError("nothing is showing") }
            for notification in all {
                try await act(on: notification) { try await $0.dismiss(id: notification.id) }
            }
            output.line("→ dismissed \(all.map { "#\($0.id)" }.joined(separator: ", "))")
        }
        return true
    }

    /// Performs a user action, noting the notification as closed here if it ended with it.
    private func act(
        on notification: ServedNotification, _ action: (NotificationServer) async throws -> Void
    ) async throws {
        closedHere.insert(notification.id)
        do {
            try await action(server)
        } catch {
            closedHere.remove(notification.id)
            throw error
        }
        if await server.notification(id: notification.id) != nil { closedHere.remove(notification.id) }
    }

    private func list() async {
        let all = await server.notifications
        guard !all.isEmpty else {
            output.line(style.dim("nothing is showing"))
            return
        }
        for notification in all {
            var parts = ["#\(notification.id)", title(of: notification)]
            let count = await buttons(of: notification).count
            if count > 0 { parts.append(style.dim(count == 1 ? "1 button" : "\(count) buttons")) }
            if notification.action("inline-reply") != nil { parts.append(style.dim("reply field")) }
            output.line(parts.joined(separator: "  "))
        }
    }

    /// The live notification named, or an error that says what is showing.
    private func live(_ reference: TerminalCommand.NotificationReference) async throws -> ServedNotification {
        switch reference {
        case .newest:
            let live = await server.notifications
            guard let id = recent.last(where: { id in live.contains { $0.id == id } }) ?? live.last?.id,
                let notification = live.first(where: { $0.id == id })
            else { throw TerminalCommandError("nothing is showing") }
            return notification
        case .id(let id):
            guard let notification = await server.notification(id: id) else {
                throw TerminalCommandError("#\(id) is not showing; 'list' shows what is")
            }
            return notification
        }
    }

    private func button(
        _ choice: TerminalCommand.ButtonChoice, of notification: ServedNotification
    ) async throws -> TerminalButton {
        let buttons = await buttons(of: notification)
        let found: TerminalButton?
        switch choice {
        case .number(let number):
            found = buttons.first { $0.number == number }
        case .name(let name):
            found = buttons.first { $0.key == name } ?? buttons.first { $0.label.lowercased() == name.lowercased() }
        }
        guard let found else {
            let what: String
            switch choice {
            case .number(let number): what = "no button \(number)"
            case .name(let name): what = "no button '\(TerminalText.sanitized(name))'"
            }
            let choices = buttons.isEmpty ? "it has no buttons" : "its buttons are 1-\(buttons.count)"
            let reply = notification.action("inline-reply") != nil ? ", and a reply field ('reply TEXT')" : ""
            throw TerminalCommandError("#\(notification.id) has \(what); \(choices)\(reply)")
        }
        return found
    }
}
