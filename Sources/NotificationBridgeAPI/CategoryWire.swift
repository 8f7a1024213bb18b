import DBusCore
import NotificationModel

/// Categories as the interface writes them: `RegisterCategory(s id, aa{sv} actions, a{sv} options)`, and one `a{sv}`
/// each in `ListCategories`.
public enum CategoryWire {
    /// Reads the arguments of `RegisterCategory`.
    ///
    /// - Throws: `InvalidArgument` saying what to change.
    public static func decode(id: String, actions: DBusValue, options: DBusValue) throws(DBusFailure)
        -> NotificationCategory
    {
        guard case .array(_, let dictionaries) = actions else {
            throw BridgeError.invalid("actions must be an array of dictionaries ('aa{sv}')")
        }
        let decoded = try ActionWire.decode(dictionaries)
        let reader = try VariantDictionary(options, place: "options", keys: CategoryOptionKeys.all)
        var minimal: [NotificationAction] = []
        if let ids = try reader.decode(CategoryOptionKeys.minimalActions) {
            let limit = NotificationLimits.maxMinimalActions
            guard ids.count <= limit else {
                throw reader.invalid(
                    CategoryOptionKeys.minimalActions,
                    "lists \(ids.count) actions; at most \(limit) "
                        + "are allowed, keep the most important")
            }
            for actionID in ids {
                guard let action = decoded.first(where: { $0.id == actionID }) else {
                    throw reader.invalid(
                        CategoryOptionKeys.minimalActions,
                        "names \(quotedForMessage(actionID)), "
                            + "which is not the id of one of the actions; use ids from actions")
                }
                minimal.append(action)
            }
        }
        let summaryFormat = try reader.decode(CategoryOptionKeys.summaryFormat)
        if let summaryFormat, let problem = ThreadSummary.check(summaryFormat) {
            throw reader.invalid(CategoryOptionKeys.summaryFormat, problem)
        }
        var category = NotificationCategory(
            id: id, actions: decoded, minimalActions: minimal,
            reportsDismissal: try reader.decode(CategoryOptionKeys.reportsDismissal) ?? false,
            summaryFormat: summaryFormat)
        category.snoozeIntervals = try reader.decode(CategoryOptionKeys.snooze) ?? []
        category.reportsSnooze = try reader.decode(CategoryOptionKeys.reportsSnooze) ?? false
        return category
    }

    /// The `options` argument of `RegisterCategory` for `category`.
    public static func options(of category: NotificationCategory) -> WireEntries {
        var options = WireEntries()
        options[CategoryOptionKeys.minimalActions] = category.minimalActions.map(\.id)
        options[CategoryOptionKeys.reportsDismissal] = category.reportsDismissal
        options[CategoryOptionKeys.summaryFormat] = category.summaryFormat
        if !category.snoozeIntervals.isEmpty { options[CategoryOptionKeys.snooze] = category.snoozeIntervals }
        if category.reportsSnooze { options[CategoryOptionKeys.reportsSnooze] = true }
        return options
    }

    /// A category as `ListCategories` returns it.
    public static func entries(of category: NotificationCategory) -> WireEntries {
        var entries = options(of: category)
        entries[CategoryKeys.id] = category.id
        entries[CategoryKeys.actions] = category.actions
        return entries
    }

    /// Reads a category of `ListCategories`.
    ///
    /// - Throws: `InvalidArgument` for a dictionary that is not one.
    public static func decode(listed value: DBusValue) throws(DBusFailure) -> NotificationCategory {
        let reader = try VariantDictionary(value, place: "category", keys: CategoryKeys.all)
        guard let id = try reader.decode(CategoryKeys.id) else {
            throw BridgeError.invalid("category has no '\(CategoryKeys.id.name)'")
        }
        return try decode(
            id: id, actions: reader.value(CategoryKeys.actions) ?? .array(element: "a{sv}", []),
            options: WireEntries(value).map { entries in
                .vardict(entries.values.filter { key, _ in CategoryOptionKeys.all.contains { $0.name == key } })
            } ?? .vardict([:]))
    }
}
