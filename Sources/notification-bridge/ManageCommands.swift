import ArgumentParser
import DBusCore

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

    var filter: DBusValue {
        var entries: [String: DBusValue] = ["app-name": .string(appName)]
        if let category { entries["category"] = .string(category) }
        if let thread { entries["thread"] = .string(thread) }
        return .vardict(entries)
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
        let reply = try await client.call(pending ? "ListPending" : "ListDelivered", [filter.filter])
        guard case .array(_, let notifications)? = reply.first else { return }
        if output.json {
            Output.printJSON(.array(notifications.map(Output.json)))
            return
        }
        for notification in notifications {
            let entries = notification.stringKeyedEntries ?? [:]
            let id = entries["id"].map(Output.text) ?? "?"
            let title = entries["title"].map(Output.text) ?? ""
            if pending, case .int64(let next)? = entries["next-fire-date"]?.unwrappedVariant {
                print("\(id)\t\(LocalClock.text(secondsSince1970: next))\t\(title)")
            } else {
                print("\(id)\t\(title)")
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
            try await client.call("Withdraw", [.string(id)])
            if output.json { Output.printJSON(.array([.string(id)])) }
            return
        }
        let reply = try await client.call("WithdrawAll", [filter.filter])
        let ids = reply.first.flatMap { value -> [String]? in
            guard case .array(_, let values) = value else { return nil }
            return values.compactMap(\.stringValue)
        } ?? []
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
        let reply = try await client.call("GetServerInformation")
        guard let information = reply.first else { return }
        if output.json { Output.printJSON(Output.json(information)) } else { Output.printDictionary(information) }
    }
}
