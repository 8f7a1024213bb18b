import ArgumentParser
import DBusCore
import NotificationBridgeAPI

/// `wait ID`: waits for the response to a notification posted earlier (by any process).
struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait for the response to a notification posted earlier, and print it.",
        discussion: """
            A response that came before is printed at once (once only). Output as for send --wait.

            \(ExitStatus.help)
            """)

    @Argument(help: "The id send printed.")
    var id: String

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let problem = NotificationIDForm.problem(inCommandLine: id) {
            throw ValidationError(
                "ID \(problem); to post a notification titled '\(id)', use notification-bridge send '\(id)'")
        }
    }

    func run() async throws {
        let client = try await BridgeClient.connect()
        do {
            try await Response.wait(for: id, client: client).print(json: output.json)
        } catch let failure as CLIFailure {
            throw closedWithoutResponse(failure, id: id, json: output.json)
        }
    }
}

/// The app-name filter of `list` and `withdraw --all`.
struct FilterOptions: ParsableArguments {
    @Option(
        name: [.customLong("app-name"), .customShort("a")],
        help: "The app whose notifications to select (default: the daemon's default app name, NotificationBridge).")
    var appName: String = "NotificationBridge"

    @Option(help: ArgumentHelp("Only those of this category.", valueName: "id"))
    var category: String?

    @Option(help: ArgumentHelp("Only those of this thread.", valueName: "id"))
    var thread: String?

    var filter: NotificationFilter {
        NotificationFilter(appName: appName, category: category, thread: thread)
    }
}

/// `list`: the notifications showing (or scheduled).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the notifications showing (default) or scheduled.",
        discussion: """
            Human output: one line each, id, then the title; with --pending, id, the next fire date in your zone, \
            then the title. JSON: an array of objects with the keys Post took (with --pending also next-fire-date, \
            seconds since 1970).
            """)

    @Flag(help: "Scheduled notifications, with their next fire date.")
    var pending = false

    @Flag(help: "Notifications showing now (the default).")
    var delivered = false

    @OptionGroup var filter: FilterOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if pending, delivered { throw ValidationError("--pending and --delivered both given; choose one") }
    }

    func run() async throws {
        let client = try await BridgeClient.connect()
        let filter = filter.filter
        let notifications = try await client.call { proxy in
            pending ? try await proxy.listPending(filter) : try await proxy.listDelivered(filter)
        }
        if output.json {
            Output.printJSON(.array(notifications.map { Output.json(.vardict($0.entries)) }))
            return
        }
        for notification in notifications {
            if pending, let next = notification.nextFireSeconds {
                print("\(notification.id)\t\(LocalClock.text(secondsSince1970: next))\t\(notification.title)")
            } else {
                print("\(notification.id)\t\(notification.title)")
            }
        }
    }
}

/// `withdraw ID | --all`.
struct WithdrawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "withdraw",
        abstract: "Close a notification, or all of an app's.",
        discussion: "--all prints the ids it closed, one a line (a JSON array with --json).")

    @Argument(help: "The notification's id.")
    var id: String?

    @Flag(help: "Close every notification the filter selects.")
    var all = false

    @OptionGroup var filter: FilterOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if all, id != nil { throw ValidationError("an id and --all both given; give one id, or --all") }
        if !all, id == nil { throw ValidationError("missing the id to withdraw; give one id, or --all") }
    }

    func run() async throws {
        let client = try await BridgeClient.connect()
        if let id {
            try await client.call { try await $0.withdraw(id: id) }
            if output.json { Output.printJSON(.array([.string(id)])) }
            return
        }
        let filter = filter.filter
        let ids = try await client.call { try await $0.withdrawAll(filter) }
        if output.json {
            Output.printJSON(.array(ids.map { .string($0) }))
        } else {
            for id in ids { print(id) }
        }
    }
}

/// `server-info` (alias `capabilities`).
struct ServerInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-info",
        abstract: "Show the notification server's name and capabilities, and the bridge's choices.",
        aliases: ["capabilities"])

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let client = try await BridgeClient.connect()
        let information = try await client.call { try await $0.serverInformation() }
        if output.json {
            Output.printJSON(Output.json(information.value))
        } else {
            Output.printDictionary(information.value)
        }
    }
}
