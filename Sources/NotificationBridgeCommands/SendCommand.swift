import ArgumentParser
import DBusCore
import NotificationBridgeAPI

/// `send TITLE [BODY]`: posts a notification, and with `--wait` waits for the response.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Post a notification (the default command).",
        discussion: """
            Without --wait it prints nothing (the id with --print-id, {"id": …} with --json) and exits 0. \
            With --wait it prints the chosen action's id and, on the next line, the typed text of a text-input \
            action; with --json one object: id, action, text, activation-token, user-info. \
            A click on the body is action 'default'. An --action without 'id=' (notify-send's -A Text) has its \
            position among the actions, from 0, as id. Unlike notify-send, -A does not imply --wait: without it \
            the response waits in the daemon for `notification-bridge wait ID`.

            After the title, everything after `--` is a command (argv, no shell) that receives every response instead \
            (with no title before it, `--` is followed by the title and body, as with notify-send): \
            NOTIFICATION_ID, NOTIFICATION_ACTION, NOTIFICATION_USER_INFO and NOTIFICATION_TEXT in its \
            environment, typed text on its standard input; with --exec-on ACTION only the responses with that \
            action. Example: \
            notification-bridge send "Build failed" --action retry=Retry --exec-on retry -- /usr/bin/make -C ~/src

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

    @Option(
        help: ArgumentHelp(
            "A registered category whose actions it shows; a freedesktop category type (email.arrived, im, "
                + "x-vendor.kind…) is notify-send's category hint, as -c.",
            valueName: "id"))
    var category: String?

    /// `--category` when it names a bridge category, not a freedesktop category type.
    var bridgeCategory: String? { category.flatMap { FreedesktopCategory.isCategoryType($0) ? nil : $0 } }

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

    @Option(
        name: .customLong("exec-on"),
        help: ArgumentHelp(
            "Run the command after '--' only for this action (repeatable; 'default' is a click on the body).",
            valueName: "action"))
    var execOn: [String] = []

    @Argument(
        parsing: .postTerminator, help: ArgumentHelp("A command that receives every response.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        if wait, !command.isEmpty {
            throw ValidationError("--wait and a command after '--' both given: responses go to one place; keep one")
        }
        if bridgeCategory != nil, !actions.isEmpty {
            throw ValidationError(
                "--category and --action both given: a notification shows a category's actions or "
                    + "its own; keep one")
        }
        if !command.isEmpty {
            do {
                try ExecRule.checkForm(command)
            } catch {
                throw ValidationError(KeyFailure(error).map { "the command after '--' \($0.problem)" } ?? error.message)
            }
            // The daemon starts it later, from its own PATH; a program that is not there now is a mistake now.
            if ExecRule.resolve(command[0]) == nil {
                throw ValidationError(
                    "the command after '--': '\(command[0])' is not an installed program (not an "
                        + "executable file, nor a name found on PATH); give the path of a program that exists")
            }
        }
        _ = try ActionSpec.list(actions)
        if !execOn.isEmpty, command.isEmpty {
            throw ValidationError(
                "--exec-on needs the command to run after '--', e.g. --exec-on retry -- /usr/bin/make")
        }
        let ids = actions.enumerated().map { $0.element.id.isEmpty ? String($0.offset) : $0.element.id }
        for action in execOn
        where action.isEmpty || action.contains(",")
            || (!actions.isEmpty && !(ids + ["default", "dismiss"]).contains(action))
        {
            throw ValidationError(
                "--exec-on '\(action)' is not one of the actions; use one of "
                    + (ids + ["default"]).joined(separator: ", "))
        }
    }

    func request() throws -> WireEntries {
        var post = self.post
        if let category, bridgeCategory == nil {
            if post.serverCategory != nil, post.serverCategory != category {
                throw ValidationError(
                    "--category \(category) and -c \(post.serverCategory!) both give the server's "
                        + "category; keep one")
            }
            post.serverCategory = category
        }
        var entries = try post.entries()
        entries.merge(try schedule.entries())
        entries[PostKeys.title] = title
        entries[PostKeys.body] = body
        if !actions.isEmpty { entries.setUnchecked(PostKeys.actions, try ActionSpec.list(actions)) }
        entries[PostKeys.category] = bridgeCategory
        entries[PostKeys.defaultAction] = defaultAction
        if !command.isEmpty {
            entries[PostKeys.exec] = execOn.isEmpty ? command : try ExecFilter.argv(actions: execOn, command: command)
        }
        return entries
    }

    /// Posts `request` through the daemon: the client it connected, and the notification's id.
    static func post(_ request: WireEntries) async throws -> (client: BridgeClient, id: String) {
        let client = try await BridgeClient.connect()
        return (client, try await client.call { try await $0.post(request) })
    }

    func run() async throws {
        let request = try request()
        if dryRun {
            if output.json { Output.printJSON(Output.json(request.value)) } else { print(request.value.description) }
            return
        }
        try LocalValidation.check(post: request)
        if let warning = try schedule.pastWarning() { printError(warning) }
        if wait { WaitCancellation.shared.posting() }
        let (client, id) = try await Self.post(request)
        if !wait {
            if output.json {
                Output.printJSON(.object([ResponseKeys.id.name: .string(id)]))
            } else if printID {
                print(id)
            }
            return
        }
        if printID, !output.json { print(id) }
        WaitCancellation.shared.arm(
            client: client, id: id, message: "notification-bridge: wait cancelled; notification \(id) was closed",
            status: ExitStatus.closed)
        do {
            try await Response.wait(for: id, client: client).print(json: output.json)
        } catch let failure as CLIFailure {
            throw closedWithoutResponse(failure, id: id, json: output.json)
        }
    }
}
