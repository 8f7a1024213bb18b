import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// How an alert asks for text.
enum TextInputStyle: String, CaseIterable, ExpressibleByArgument {
    case plain, secure
}

/// `alert`: an alert view as a notification. Its buttons are actions; it waits and reports the chosen button's index.
struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "Show an alert (a notification whose actions are buttons), wait, and print the button chosen.",
        discussion: """
            Button indexes follow UIAlertView: with --cancel, the cancel button is 0 and the others count from 1, \
            --destructive first, then each --button in order; without --cancel they count from 0. Prints the index \
            and the title separated by a tab, then, with --text-input, the typed text on the next line; --json \
            prints one object: id, index, title, action, cancelled, text, cancel-index (-1 without --cancel) and \
            first-other-index (as UIAlertView's firstOtherButtonIndex). \
            A dismissal (closing it without a button) counts as cancel: the cancel index is printed (-1 without \
            --cancel).

            --text-input makes the first button that is not cancel a text field whose submit button has that \
            button's title. 'secure' is accepted for scripts written for other systems, but notification servers \
            have no hidden text field: the text is shown as typed (a warning says so).

            EXIT STATUS:
              0  a button other than cancel was chosen
              1  the daemon or the bus failed
              2  usage error
              3  cancelled: the cancel button, or dismissed, expired or withdrawn
            """)

    @Argument(help: "The alert's title.")
    var title: String

    @Argument(help: "The message below it.")
    var message: String?

    @Option(help: ArgumentHelp("The cancel button's title (index 0).", valueName: "label"))
    var cancel: String?

    @Option(name: .customLong("button"), help: ArgumentHelp("Another button (repeatable).", valueName: "label"))
    var buttons: [String] = []

    @Option(help: ArgumentHelp("A destructive button, shown first.", valueName: "label"))
    var destructive: String?

    @Option(help: ArgumentHelp("Ask for text in a field.", valueName: "style"))
    var textInput: TextInputStyle?

    @Option(help: ArgumentHelp("The text field's placeholder (with --text-input).", valueName: "text"))
    var placeholder: String?

    @OptionGroup var post: PostOptions
    @OptionGroup var output: OutputOptions

    /// A button: its index and its action.
    struct Button {
        var index: Int
        var action: ActionSpec
        var isCancel: Bool
    }

    var alertButtons: [Button] {
        var result: [Button] = []
        if let cancel {
            result.append(Button(index: 0, action: ActionSpec(id: "button-0", title: cancel), isCancel: true))
        }
        var others = buttons.map { ActionSpec(id: "", title: $0) }
        if let destructive {
            var action = ActionSpec(id: "", title: destructive)
            action.destructive = true
            others.insert(action, at: 0)
        }
        for (offset, var action) in others.enumerated() {
            let index = result.count
            action.id = "button-\(index)"
            if offset == 0, textInput != nil {
                action.textInput = true
                action.submitTitle = action.title
                action.placeholder = placeholder
            }
            result.append(Button(index: index, action: action, isCancel: false))
        }
        return result
    }

    func validate() throws {
        if cancel == nil, buttons.isEmpty, destructive == nil {
            throw ValidationError("an alert needs a button: give --cancel LABEL, --button LABEL or --destructive LABEL")
        }
        for (option, label) in [("--cancel", cancel), ("--destructive", destructive)]
            + buttons.map({ ("--button", $0) })
        where label?.isEmpty == true {
            throw ValidationError("\(option) is empty; give the button's title")
        }
        if textInput != nil, buttons.isEmpty, destructive == nil {
            throw ValidationError("--text-input needs a button to submit the text: add --button LABEL")
        }
        if placeholder != nil, textInput == nil {
            throw ValidationError("--placeholder applies only with --text-input plain|secure")
        }
    }

    func run() async throws {
        if textInput == .secure {
            printError(
                "notification-bridge: warning: notification servers have no hidden text field; the text is "
                    + "shown as typed")
        }
        let buttons = alertButtons
        var entries = try post.entries()
        entries[PostKeys.title] = title
        entries[PostKeys.body] = message
        entries.setUnchecked(PostKeys.actions, try ActionSpec.list(buttons.map(\.action)))
        try LocalValidation.check(post: entries)

        let client = try await BridgeClient.connect()
        let id = try await client.call { try await $0.post(entries) }
        let chosen: Button?
        var text: String?
        do {
            let response = try await Response.wait(for: id, client: client)
            chosen = buttons.first { $0.action.id == response.action }
            text = response.text
        } catch {
            guard let failure = error as? CLIFailure, failure.status == ExitStatus.closed else { throw error }
            chosen = nil
        }
        let cancelled = chosen?.isCancel ?? true
        let index = chosen?.index ?? (cancel == nil ? -1 : 0)
        let buttonTitle = chosen?.action.title ?? cancel ?? ""
        if cancelled { text = nil }
        if output.json {
            var members: [String: JSONValue] = [
                ResponseKeys.id.name: .string(id), "index": .number(Double(index)), "title": .string(buttonTitle),
                "cancelled": .bool(cancelled), ResponseKeys.action.name: chosen.map { .string($0.action.id) } ?? .null,
                "cancel-index": .number(cancel == nil ? -1 : 0),
                "first-other-index": .number(Double(buttons.first { !$0.isCancel }?.index ?? -1)),
            ]
            if let text { members[ResponseKeys.text.name] = .string(text) }
            Output.printJSON(.object(members))
        } else {
            print("\(index)\t\(buttonTitle)")
            if let text { print(text) }
        }
        if cancelled { throw CLIFailure.closed("") }
    }
}
