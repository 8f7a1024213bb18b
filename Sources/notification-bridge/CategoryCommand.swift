import ArgumentParser
import DBusCore

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

        @OptionGroup var output: OutputOptions

        func validate() throws {
            guard !id.isEmpty else { throw ValidationError("the category id is empty; give one, e.g. org.example.mail") }
            guard !actions.isEmpty else {
                throw ValidationError("a category needs at least one --action \(ActionSpec.form)")
            }
            _ = try ActionSpec.list(actions)
            for actionID in minimal where !actions.contains(where: { $0.id == actionID }) {
                throw ValidationError("--minimal '\(actionID)' is not the id of one of the --action values")
            }
        }

        func run() async throws {
            let client = try await BridgeClient.connect()
            var options: [String: DBusValue] = [:]
            if !minimal.isEmpty { options["minimal-actions"] = .strings(minimal) }
            if reportsDismissal { options["reports-dismissal"] = .boolean(true) }
            try await client.call("RegisterCategory", [.string(id), try ActionSpec.list(actions), .vardict(options)])
            if output.json { Output.printJSON(.object(["id": .string(id)])) }
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
            try await client.call("RemoveCategory", [.string(id)])
            if output.json { Output.printJSON(.object(["id": .string(id)])) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the registered categories.",
            discussion: "One line each: the id, then the actions as id=Title. JSON: an array of objects.")

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let client = try await BridgeClient.connect()
            let reply = try await client.call("ListCategories")
            guard case .array(_, let categories)? = reply.first else { return }
            if output.json {
                Output.printJSON(.array(categories.map(Output.json)))
                return
            }
            for category in categories {
                let entries = category.stringKeyedEntries ?? [:]
                var actions: [String] = []
                if case .array(_, let list)? = entries["actions"]?.unwrappedVariant {
                    for action in list {
                        let fields = action.stringKeyedEntries ?? [:]
                        actions.append(
                            "\(fields["id"].map(Output.text) ?? "?")=\(fields["title"].map(Output.text) ?? "")")
                    }
                }
                print("\(entries["id"].map(Output.text) ?? "?")\t\(actions.joined(separator: ", "))")
            }
        }
    }
}
