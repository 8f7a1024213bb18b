import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// `category add|remove|list`.
struct CategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category",
        abstract: "Register, remove and list categories: named sets of actions that notifications refer to.",
        subcommands: [Add.self, Remove.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register (or replace) a category.",
            discussion: "Prints nothing ({\"id\": …} with --json).")

        @Argument(help: "The category's id, e.g. org.example.mail.message.")
        var id: String

        @Option(
            name: [.customLong("action"), .customShort("A")],
            help: ArgumentHelp("An action (repeatable): \(ActionSpec.form).", valueName: "action"),
            transform: { try ActionSpec(parsing: $0) })
        var actions: [ActionSpec] = []

        @Option(
            name: .customLong("minimal"),
            help: ArgumentHelp("The id of an action shown where few buttons fit (at most two).", valueName: "id"))
        var minimal: [String] = []

        @Flag(help: "Report a dismissal as a response with action 'dismiss'.")
        var reportsDismissal = false

        @Option(
            help: ArgumentHelp(
                "The summary line of a thread of its notifications: %u the count, %@ the summary arguments, e.g. "
                    + "'%u new messages from %@'.",
                valueName: "format"))
        var summaryFormat: String?

        @Option(
            help: ArgumentHelp(
                "Snooze buttons its notifications offer: \(SnoozeSpec.form); the first where few buttons fit.",
                valueName: "intervals"))
        var snooze: String?

        @Flag(help: "Report a snooze as a response with action 'snooze'.")
        var reportsSnooze = false

        @OptionGroup var output: OutputOptions

        func validate() throws {
            guard !id.isEmpty else {
                throw ValidationError("the category id is empty; give one, e.g. org.example.mail")
            }
            guard !actions.isEmpty else {
                throw ValidationError("a category needs at least one --action \(ActionSpec.form)")
            }
            _ = try ActionSpec.list(actions)
            if let snooze { _ = try SnoozeSpec.parse(snooze) }
            if minimal.count > 2 {
                throw ValidationError(
                    "--minimal is given \(minimal.count) times; where few buttons fit at most two "
                        + "actions are shown: keep two")
            }
            for actionID in minimal where !actions.contains(where: { $0.id == actionID }) {
                throw ValidationError("--minimal '\(actionID)' is not the id of one of the --action values")
            }
            if let summaryFormat, let problem = ThreadSummary.check(summaryFormat) {
                throw ValidationError("--summary-format '\(summaryFormat)' \(problem)")
            }
        }

        func run() async throws {
            var options = WireEntries()
            if !minimal.isEmpty { options[CategoryOptionKeys.minimalActions] = minimal }
            if reportsDismissal { options[CategoryOptionKeys.reportsDismissal] = true }
            if let summaryFormat { options[CategoryOptionKeys.summaryFormat] = summaryFormat }
            if let snooze { options[CategoryOptionKeys.snooze] = try SnoozeSpec.parse(snooze) }
            if reportsSnooze { options[CategoryOptionKeys.reportsSnooze] = true }
            let actions = try ActionSpec.dictionaries(actions)
            try LocalValidation.check(categoryID: id, actions: actions, options: options)
            let client = try await BridgeClient.connect()
            try await client.call {
                try await $0.registerCategory(id: id, actions: actions, options: options)
            }
            if output.json { Output.printJSON(.object([CategoryKeys.id.name: .string(id)])) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a category.", discussion: "Prints nothing ({\"id\": …} with --json).")

        @Argument(help: "The category's id.")
        var id: String

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let client = try await BridgeClient.connect()
            try await client.call { try await $0.removeCategory(id: id) }
            if output.json { Output.printJSON(.object([CategoryKeys.id.name: .string(id)])) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the registered categories.",
            discussion: "One line each: the id, then the actions as id=Title. JSON: an array of objects.")

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let client = try await BridgeClient.connect()
            let categories = try await client.call { try await $0.listCategories() }
            if output.json {
                Output.printJSON(.array(categories.map { Output.json(CategoryWire.entries(of: $0).value) }))
                return
            }
            for category in categories {
                let actions = category.actions.map { "\($0.id)=\($0.title)" }
                print("\(category.id)\t\(actions.joined(separator: ", "))")
            }
        }
    }
}
