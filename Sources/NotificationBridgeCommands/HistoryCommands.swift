import ArgumentParser
import DBusCore
import NotificationBridgeAPI

/// `history`: the notifications that were shown and ended, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the notifications that were shown and ended, newest first.",
        discussion: """
            Human output: one line each, the id, when it ended in your zone, how it ended (responded with its \
            action, dismissed, expired, closed, withdrawn, replaced, server-gone; "\(HistoryKeys.answerable.name)" \
            where 'act' can still answer it), then the title. JSON: an array of objects with the keys Post took, the actions it offered, \
            and ended, ended-at (seconds since 1970), ended-at-iso8601, response-action and \
            \(HistoryKeys.answerable.name). Typed text \
            is never kept. How long and how many are kept: notification-bridged --history-days and --history-limit.
            """)

    @OptionGroup var filter: FilterOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let client = try await BridgeClient.connect()
        let filter = filter.filter
        let entries = try await client.call { try await $0.listHistory(filter) }
        if output.json {
            Output.printJSON(.array(entries.map { Output.json($0.value) }))
            return
        }
        for entry in entries {
            var ending = entry.ending.rawValue
            if let action = entry.responseAction { ending += " (\(action))" }
            if entry.isAnswerable { ending += ", " + HistoryKeys.answerable.name }
            print(
                "\(entry.id)\t\(LocalClock.text(secondsSince1970: entry.endedAtSeconds))\t\(ending)\t"
                    + entry.notification.title)
        }
    }
}

/// `act ID ACTION [--text TEXT]`: answers a notification of the history as a click would have.
struct ActCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "act",
        abstract: "Answer a notification that ended without a response, as a click on its action would have.",
        discussion: """
            For a notification that expired, was closed by the notification server, or left the screen with it \
            ('\(HistoryKeys.answerable.name)' in 'notification-bridge history'). The response goes where a click \
            would have sent it: the notification's command, its app, or the program that posted it (or its app, attached). A \
            notification the user dismissed, or that its app withdrew or replaced, or that was answered already, \
            is refused and the message says why.

            \(ExitStatus.help)
            """)

    @Argument(help: "The notification's id, as 'notification-bridge history' lists it.")
    var id: String

    @Argument(help: "The action's id, or 'default' for a click on the notification's body.")
    var action: String

    @Option(help: ArgumentHelp("The typed text of a text-input action (required for one).", valueName: "words"))
    var text: String?

    func validate() throws {
        if let problem = NotificationIDForm.problem(inCommandLine: id) { throw ValidationError("ID \(problem)") }
        if action.isEmpty { throw ValidationError("ACTION is empty; give an action id, or 'default'") }
    }

    func run() async throws {
        let client = try await BridgeClient.connect()
        let (id, action, text) = (id, action, text)
        try await client.call { try await $0.act(id: id, action: action, text: text) }
    }
}
