import ArgumentParser
import DBusCore

/// `send TITLE [BODY]`: posts a notification, and with `--wait` waits for the response.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Post a notification (the default command).",
        discussion: """
            Without --wait it prints nothing (the id with --print-id, {"id": …} with --json) and exits 0. \
            With --wait it prints the chosen action's id and, on the next line, the typed text of a text-input \
            action; with --json one object: id, action, text, activation-token, user-info. \
            A click on the body is action 'default'.

            Everything after `--` is a command (argv, no shell) that receives every response instead: \
            NOTIFICATION_ID, NOTIFICATION_ACTION, NOTIFICATION_USER_INFO and NOTIFICATION_TEXT in its \
            environment, typed text on its standard input. Example: \
            notification-bridge send "Build failed" --action retry=Retry -- /usr/bin/make -C ~/src

            \(ScheduleOptions.discussion)

            \(ExitStatus.help)
            """)

    @Argument(help: "The title (summary).")
    var title: String

    @Argument(help: "The text below the title.")
    var body: String?

    @Option(
        name: [.customLong("action"), .customShort("A")],
        help: ArgumentHelp("An action button (repeatable): \(ActionSpec.form).", valueName: "action"),
        transform: { try ActionSpec(parsing: $0) })
    var actions: [ActionSpec] = []

    @Option(help: ArgumentHelp("A registered category whose actions it shows.", valueName: "id"))
    var category: String?

    @Option(help: ArgumentHelp("The label of the click on the body, reported as action 'default'.", valueName: "label"))
    var defaultAction: String?

    @OptionGroup var post: PostOptions

    @OptionGroup(title: "Scheduling") var schedule: ScheduleOptions

    @Flag(name: [.customLong("wait"), .customShort("w")], help: "Wait for the response and print it.")
    var wait = false

    @Flag(name: [.customLong("print-id"), .customShort("p")], help: "Print the notification's id.")
    var printID = false

    @Flag(help: "Print the Post request in GVariant text (as gdbus call takes it) instead of sending it.")
    var dryRun = false

    @OptionGroup var output: OutputOptions

    @Argument(parsing: .postTerminator, help: ArgumentHelp("A command that receives every response.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        if wait, !command.isEmpty {
            throw ValidationError("--wait and a command after '--' both given: responses go to one place; keep one")
        }
        if category != nil, !actions.isEmpty {
            throw ValidationError("--category and --action both given: a notification shows a category's actions or "
                + "its own; keep one")
        }
        if let first = command.first, !first.hasPrefix("/") {
            throw ValidationError("the command after '--' must start with an absolute path (no shell, no PATH "
                + "lookup), e.g. -- /usr/bin/notify-handler; '\(first)' is not one")
        }
        _ = try ActionSpec.list(actions)
    }

    func request() throws -> DBusValue {
        var entries = try post.entries()
        entries.merge(try schedule.entries()) { $1 }
        entries["title"] = .string(title)
        if let body { entries["body"] = .string(body) }
        if !actions.isEmpty { entries["actions"] = try ActionSpec.list(actions) }
        if let category { entries["category"] = .string(category) }
        if let defaultAction { entries["default-action"] = .string(defaultAction) }
        if !command.isEmpty { entries["exec"] = .strings(command) }
        return .vardict(entries)
    }

    func run() async throws {
        let request = try request()
        if dryRun {
            if output.json { Output.printJSON(Output.json(request)) } else { print(request.description) }
            return
        }
        let client = try await BridgeClient.connect()
        let reply = try await client.call("Post", [request])
        guard let id = reply.first?.stringValue else {
            throw CLIFailure("notification-bridge: Post answered \(reply.gvariantTupleText), not an id")
        }
        if !wait {
            if output.json { Output.printJSON(.object(["id": .string(id)])) } else if printID { print(id) }
            return
        }
        if printID, !output.json { print(id) }
        do {
            try await Response.wait(for: id, client: client).print(json: output.json)
        } catch let failure as CLIFailure {
            throw closedWithoutResponse(failure, id: id, json: output.json)
        }
    }
}
