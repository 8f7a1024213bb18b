import NotificationModel

/// A field that a ``NotificationValidationError`` names, as the interface writes it: a key of one of the key tables,
/// inside the list of actions where the field is an action's.
///
/// The model names its fields by Swift property paths (`content.appName`, `category.actions[1].behavior.placeholder`);
/// ``init(modelPath:)`` finds the key that carries each in ``PostKeys``, ``ActionKeys``, ``CategoryKeys`` and
/// ``CategoryOptionKeys``, so that the daemon's message names `app-name` and `actions[1].text-input-placeholder`, and
/// the command line, from the same key, its option.
public struct ValidationField: Sendable, Hashable {
    /// The list the field is in, with the field's place in it: `actions[1]` of a notification or a category, or
    /// `minimal-actions[0]` of a category's options.
    public var list: (key: BridgeKeyInfo, index: Int)?
    /// The key that carries the field.
    public var key: BridgeKeyInfo
    /// Whether the field is a category's, given to `RegisterCategory` (rather than a notification's, to `Post`).
    public var isCategory: Bool
    /// What follows the key in the model's path: the place of a value inside `user-info` (`["mailbox"][0]`).
    public var inside: String

    /// The field at `path`, as ``NotificationValidationError/field`` gives it; `nil` for a path the interface has no
    /// key for.
    public init?(modelPath path: String) {
        let isCategory = path.hasPrefix("category.")
        guard isCategory || path.hasPrefix("content.") else { return nil }
        let rest = path.drop { $0 != "." }.dropFirst()
        let lists = isCategory ? Self.categoryLists : Self.contentLists
        for (property, listKey) in lists where rest.hasPrefix(property + "[") {
            let afterName = rest.dropFirst(property.count + 1)
            guard let close = afterName.firstIndex(of: "]"), let index = Int(afterName[..<close]),
                afterName[afterName.index(after: close)...].first == "."
            else { return nil }
            if listKey == CategoryOptionKeys.minimalActions.info {
                // The wire lists minimal actions by their ids: the field is the list's element itself.
                self.init(list: nil, key: listKey, isCategory: isCategory, inside: "[\(index)]")
                return
            }
            let actionPath = afterName[afterName.index(close, offsetBy: 2)...]
            guard let key = Self.actionProperties.first(where: { $0.property == actionPath })?.key else { return nil }
            self.init(list: (listKey, index), key: key, isCategory: isCategory, inside: "")
            return
        }
        let properties = isCategory ? Self.categoryProperties : Self.contentProperties
        // A place inside the value may follow: an index into a list (snooze intervals), a place in user-info's JSON.
        for (property, key) in properties where rest == property || rest.hasPrefix(property + "[") {
            self.init(list: nil, key: key, isCategory: isCategory, inside: String(rest.dropFirst(property.count)))
            return
        }
        return nil
    }

    private init(list: (key: BridgeKeyInfo, index: Int)?, key: BridgeKeyInfo, isCategory: Bool, inside: String) {
        self.list = list
        self.key = key
        self.isCategory = isCategory
        self.inside = inside
    }

    /// The field as a D-Bus caller writes it: `app-name`, `actions[1].text-input-placeholder`, `user-info["a"]`; a
    /// category's id, which is `RegisterCategory`'s first argument, is `category id`.
    public var wireName: String {
        if isCategory, list == nil, key == CategoryKeys.id.info { return "category id" }
        let prefix = list.map { "\($0.key.name)[\($0.index)]." } ?? ""
        return prefix + key.name + inside
    }

    /// Two fields are the same when they name the same place.
    public static func == (left: ValidationField, right: ValidationField) -> Bool {
        left.list?.key == right.list?.key && left.list?.index == right.list?.index && left.key == right.key
            && left.isCategory == right.isCategory && left.inside == right.inside
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(list?.key)
        hasher.combine(list?.index)
        hasher.combine(key)
        hasher.combine(isCategory)
        hasher.combine(inside)
    }

    // MARK: The model's properties and the keys that carry them

    /// A notification's properties (``NotificationContent``), and `Post`'s keys.
    static let contentProperties: [(property: String, key: BridgeKeyInfo)] = [
        ("title", PostKeys.title.info), ("body", PostKeys.body.info), ("appName", PostKeys.appName.info),
        ("desktopEntry", PostKeys.desktopEntry.info), ("icon", PostKeys.icon.info), ("image", PostKeys.image.info),
        ("defaultActionLabel", PostKeys.defaultAction.info), ("sound.named", PostKeys.sound.info),
        ("sound.file", PostKeys.sound.info), ("threadID", PostKeys.thread.info),
        ("summaryArgument", PostKeys.summaryArgument.info),
        ("summaryArgumentCount", PostKeys.summaryArgumentCount.info), ("categoryID", PostKeys.category.info),
        ("actions", PostKeys.actions.info), ("userInfo", PostKeys.userInfo.info),
        ("timeout", PostKeys.timeout.info), ("badge", PostKeys.badge.info), ("urgency", PostKeys.urgency.info),
        ("snoozeIntervals", PostKeys.snooze.info),
    ]

    /// A category's properties (``NotificationCategory``), and `RegisterCategory`'s arguments and option keys.
    static let categoryProperties: [(property: String, key: BridgeKeyInfo)] = [
        ("id", CategoryKeys.id.info), ("actions", CategoryKeys.actions.info),
        ("minimalActions", CategoryOptionKeys.minimalActions.info),
        ("summaryFormat", CategoryOptionKeys.summaryFormat.info), ("snoozeIntervals", CategoryOptionKeys.snooze.info),
    ]

    /// The lists of actions of a notification, and of a category.
    static let contentLists: [(property: String, key: BridgeKeyInfo)] = [("actions", PostKeys.actions.info)]
    static let categoryLists: [(property: String, key: BridgeKeyInfo)] = [
        ("actions", CategoryKeys.actions.info), ("minimalActions", CategoryOptionKeys.minimalActions.info),
    ]

    /// An action's properties (``NotificationAction``), and the keys of an action's dictionary.
    static let actionProperties: [(property: Substring, key: BridgeKeyInfo)] = [
        ("id", ActionKeys.id.info), ("title", ActionKeys.title.info),
        ("behavior.submitButtonTitle", ActionKeys.textInputButtonTitle.info),
        ("behavior.placeholder", ActionKeys.textInputPlaceholder.info),
    ]
}

extension NotificationValidationError {
    /// The error's message with each field named by its key, as a D-Bus caller writes it (``ValidationField``); a
    /// path the interface has no key for stays as the model names it.
    public var wireMessage: String {
        message { path in ValidationField(modelPath: path)?.wireName ?? path }
    }
}
