import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// What the command line calls each field a validation error can name: the option that sets the key carrying it
/// (``ValidationField``), so that a rule the model checks is reported in the words the user typed.
enum ValidationOptions {
    /// The options that set the keys of `Post` and `RegisterCategory`, by key name. The keys `send` has no option for
    /// are absent (``PostKeys/badge``).
    static let options: [String: String] = [
        PostKeys.title.name: "the title", PostKeys.body.name: "the body", PostKeys.appName.name: "--app-name",
        PostKeys.desktopEntry.name: "--desktop-entry", PostKeys.icon.name: "--icon", PostKeys.image.name: "--image",
        PostKeys.defaultAction.name: "--default-action", PostKeys.sound.name: "--sound",
        PostKeys.thread.name: "--thread", PostKeys.summaryArgument.name: "--summary-argument",
        PostKeys.summaryArgumentCount.name: "--summary-count", PostKeys.category.name: "--category",
        PostKeys.actions.name: "--action", PostKeys.userInfo.name: "--user-info", PostKeys.timeout.name: "--timeout",
        PostKeys.urgency.name: "--urgency", PostKeys.snooze.name: "--snooze",
        CategoryOptionKeys.minimalActions.name: "--minimal", CategoryOptionKeys.summaryFormat.name: "--summary-format",
    ]

    /// The parts of an `--action` value (``ActionSpec``) that set the keys of an action's dictionary.
    static let actionParts: [String: String] = [
        ActionKeys.id.name: "the id", ActionKeys.title.name: "the title",
        ActionKeys.textInputButtonTitle.name: "the text-input submit title",
        ActionKeys.textInputPlaceholder.name: "the placeholder",
    ]

    /// The field as the command line names it (`--app-name`, `the title of --action 2`), or `nil` when no option sets
    /// it.
    static func name(of field: ValidationField) -> String? {
        if field.isCategory, field.list == nil, field.key == CategoryKeys.id.info { return "the category id" }
        if let (list, index) = field.list {
            guard let option = options[list.name], let part = actionParts[field.key.name] else { return nil }
            return "\(part) of \(option) \(index + 1)"
        }
        guard let option = options[field.key.name] else { return nil }
        if field.inside.isEmpty { return option }
        // A place inside the key's value: the n-th item of a list option, or a value inside --user-info's JSON.
        if let index = Int(field.inside.dropFirst().dropLast()) { return "item \(index + 1) of \(option)" }
        return "\(option) (at \(field.inside))"
    }

    /// The field at a model path as the command line names it; the interface's key where no option sets it, and the
    /// model's path where the interface has no key for it.
    static func name(ofModelPath path: String) -> String {
        guard let field = ValidationField(modelPath: path) else { return path }
        return name(of: field) ?? field.wireName
    }

    /// Checks a notification as the daemon will, before it is sent, so that a rule it breaks is reported with the
    /// option that broke it. A dictionary the daemon cannot read is left for the daemon, whose message names the key.
    ///
    /// - Throws: ``CLIFailure`` with status 2 (usage).
    static func check(post entries: WireEntries) throws {
        guard let post = try? NotificationPost(decoding: entries.value) else { return }
        do throws(NotificationValidationError) {
            // Whether the category is registered is the daemon's to say.
            try post.content.validate(isCategoryRegistered: { _ in true })
        } catch {
            throw failure(error)
        }
    }

    /// Checks a category as the daemon will, before it is registered (see ``check(post:)``).
    ///
    /// - Throws: ``CLIFailure`` with status 2 (usage).
    static func check(categoryID id: String, actions: [DBusValue], options: WireEntries) throws {
        guard
            let category = try? CategoryWire.decode(
                id: id, actions: .array(element: "a{sv}", actions), options: options.value)
        else { return }
        do throws(NotificationValidationError) {
            try category.validate()
        } catch {
            throw failure(error)
        }
    }

    private static func failure(_ error: NotificationValidationError) -> CLIFailure {
        CLIFailure("notification-bridge: " + error.message(naming: name(ofModelPath:)), status: ExitStatus.usage)
    }
}
