import DBusCore
import NotificationModel

/// The target the bridge gives each portal button and the default action: which action it is, with the
/// notification's category id and user info.
///
/// The portal hands the target back in `ActionInvoked`, also to a later run of the app (portal notifications outlast
/// the app that posted them), so a response can be routed and carry its user info without anything kept in memory.
struct PortalTarget: Sendable, Hashable {
    /// The action's id; `default` for a click on the body.
    var actionID: String
    /// The bridge's category id of the notification.
    var categoryID: String?
    /// The notification's user info.
    var userInfo: [String: JSONValue]
    /// The bridge's id of the notification, where the portal activates actions on the app: a run it started has no
    /// other way to know it.
    var notificationID: String?

    init(actionID: String, categoryID: String?, userInfo: [String: JSONValue], notificationID: String? = nil) {
        self.actionID = actionID
        self.categoryID = categoryID
        self.userInfo = userInfo
        self.notificationID = notificationID
    }

    /// The target of `actionID` on a notification with `content`.
    init(actionID: String, content: NotificationContent, notificationID: String? = nil) {
        self.init(
            actionID: actionID, categoryID: content.categoryID, userInfo: content.userInfo,
            notificationID: notificationID)
    }

    /// The target as the portal carries it: a dictionary, the user info as JSON text.
    var value: DBusValue {
        var entries: [String: DBusValue] = [PortalWire.Target.action: .string(actionID)]
        if let categoryID { entries[PortalWire.Target.category] = .string(categoryID) }
        if !userInfo.isEmpty { entries[PortalWire.Target.userInfo] = .string(JSONValue.object(userInfo).jsonText) }
        if let notificationID { entries[PortalWire.Target.notificationID] = .string(notificationID) }
        return .vardict(entries)
    }

    /// Reads a target the bridge made; `nil` for any other value.
    init?(_ value: DBusValue) {
        guard let entries = value.unwrappedVariant.stringKeyedEntries,
            let actionID = entries[PortalWire.Target.action]?.unwrappedVariant.stringValue
        else { return nil }
        self.actionID = actionID
        categoryID = entries[PortalWire.Target.category]?.unwrappedVariant.stringValue
        notificationID = entries[PortalWire.Target.notificationID]?.unwrappedVariant.stringValue
        userInfo = [:]
        if let text = entries[PortalWire.Target.userInfo]?.unwrappedVariant.stringValue,
            case .object(let object)? = try? JSONValue(parsing: text)
        {
            userInfo = object
        }
    }
}
