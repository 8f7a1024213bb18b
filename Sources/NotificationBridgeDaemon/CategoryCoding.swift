import DBusCore
import NotificationModel

/// Categories as the D-Bus API writes them.
///
/// `RegisterCategory(s id, aa{sv} actions, a{sv} options)`; options: `minimal-actions` (`as`, ids of at most two of
/// the actions, shown where the server shows few buttons) and `reports-dismissal` (b, report a dismissal as a response
/// with action `dismiss`). `ListCategories` returns each category as `a{sv}` with `id`, `actions`, `minimal-actions`
/// and `reports-dismissal`.
package enum CategoryCoding {
    static let optionKeys = ["minimal-actions", "reports-dismissal"]

    package static func decode(id: String, actions: DBusValue, options: DBusValue) throws(DBusFailure) -> NotificationCategory {
        guard case .array(_, let dictionaries) = actions else {
            throw BridgeError.invalid("actions must be an array of dictionaries ('aa{sv}')")
        }
        let decoded = try ActionCoding.decode(dictionaries)
        let reader = try VariantDictionary(options, place: "options", known: optionKeys)
        var minimal: [NotificationAction] = []
        if let ids = try reader.strings("minimal-actions", example: "<['reply', 'archive']>") {
            let limit = NotificationLimits.maxMinimalActions
            guard ids.count <= limit else {
                throw reader.invalid("minimal-actions", "lists \(ids.count) actions; at most \(limit) are allowed, "
                    + "keep the most important")
            }
            for actionID in ids {
                guard let action = decoded.first(where: { $0.id == actionID }) else {
                    throw reader.invalid("minimal-actions", "names \(quotedForMessage(actionID)), which is not the id "
                        + "of one of the actions; use ids from actions")
                }
                minimal.append(action)
            }
        }
        return NotificationCategory(
            id: id, actions: decoded, minimalActions: minimal,
            reportsDismissal: try reader.boolean("reports-dismissal") ?? false)
    }

    static func encode(_ category: NotificationCategory) -> DBusValue {
        .vardict([
            "id": .string(category.id), "actions": ActionCoding.encode(category.actions),
            "minimal-actions": .strings(category.minimalActions.map(\.id)),
            "reports-dismissal": .boolean(category.reportsDismissal),
        ])
    }
}
