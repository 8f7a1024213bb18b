import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// The option that sets each key of the interface: what the command line calls a key, and so a field a validation
/// error names (``ValidationField``) or a key the daemon refuses (``KeyFailure``), in the words the user typed.
enum KeyOptions {
    /// The options that set the keys of `Post`, of a category's options, of `Act`'s and of `TurnOnFocus`'s, by key
    /// name. The keys no command has an option for are absent (``PostKeys/badge``).
    static let options: [String: String] = [
        PostKeys.title.name: "the title", PostKeys.body.name: "the body", PostKeys.appName.name: "--app-name",
        PostKeys.desktopEntry.name: "--desktop-entry", PostKeys.icon.name: "--icon", PostKeys.image.name: "--image",
        PostKeys.defaultAction.name: "--default-action", PostKeys.sound.name: "--sound",
        PostKeys.thread.name: "--thread", PostKeys.summaryArgument.name: "--summary-argument",
        PostKeys.summaryArgumentCount.name: "--summary-count", PostKeys.category.name: "--category",
        PostKeys.actions.name: "--action", PostKeys.userInfo.name: "--user-info", PostKeys.timeout.name: "--timeout",
        PostKeys.urgency.name: "--urgency", PostKeys.snooze.name: "--snooze",
        PostKeys.replaces.name: "--replace", PostKeys.interruptionLevel.name: "--level",
        PostKeys.exec.name: "the command after '--'", PostKeys.hints.name: "--hint", PostKeys.fireDate.name: "--at",
        PostKeys.delay.name: "--in", PostKeys.repeat.name: "--repeat", PostKeys.calendar.name: "--every/--next",
        PostKeys.timeZone.name: "--time-zone", PostKeys.ifDoNotDisturb.name: "--if-do-not-disturb",
        CategoryOptionKeys.minimalActions.name: "--minimal", CategoryOptionKeys.summaryFormat.name: "--summary-format",
        CategoryOptionKeys.reportsDismissal.name: "--reports-dismissal", ActOptionKeys.text.name: "--text",
        FocusOptionKeys.duration.name: "--for", FocusOptionKeys.until.name: "--until",
        FocusOptionKeys.allowApps.name: "--allow-app", FocusOptionKeys.allowThreads.name: "--allow-thread",
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

    /// The key a daemon refused as the command line names it (`--in`, `the title of --action 2`), or `nil` when no
    /// option sets it: a key of a dictionary no option fills, such as a filter's.
    static func name(of refusal: KeyFailure) -> String? {
        if let (list, index) = refusal.listPlace {
            guard let option = options[list], let part = actionParts[refusal.key] else { return nil }
            return "\(part) of \(option) \(index + 1)"
        }
        guard ["notification", "options"].contains(refusal.place) else { return nil }
        return options[refusal.key]
    }

    /// The field at a model path as the command line names it; the interface's key where no option sets it, and the
    /// model's path where the interface has no key for it.
    static func name(ofModelPath path: String) -> String {
        guard let field = ValidationField(modelPath: path) else { return path }
        return name(of: field) ?? field.wireName
    }
}
