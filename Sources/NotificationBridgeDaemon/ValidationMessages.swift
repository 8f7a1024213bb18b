import DBusCore
import NotificationBridgeAPI
import NotificationModel

extension NotificationValidationError {
    /// The error as the D-Bus API reports it: `UnknownCategory` for a category that is not registered,
    /// `InvalidArgument` for everything else, with the model's field names turned into the API's keys
    /// (`content.appName` → `app-name`, `category.actions[1].behavior.placeholder` →
    /// `actions[1].text-input-placeholder`).
    var bridgeFailure: DBusFailure {
        var message = description
        for (swiftName, key) in Self.keyNames {
            message = message.replacing(swiftName, with: key)
        }
        if case .unknownCategory = self {
            return DBusFailure(name: BridgeError.unknownCategory, message: message)
        }
        return BridgeError.invalid(message)
    }

    /// Model names and what the API calls them, most specific first.
    private static let keyNames: [(String, String)] = [
        ("content.sound.named", PostKeys.sound.name),
        ("content.sound.file", PostKeys.sound.name),
        (".behavior.submitButtonTitle", "." + ActionKeys.textInputButtonTitle.name),
        (".behavior.placeholder", "." + ActionKeys.textInputPlaceholder.name),
        ("content.appName", PostKeys.appName.name),
        ("content.desktopEntry", PostKeys.desktopEntry.name),
        ("content.defaultActionLabel", PostKeys.defaultAction.name),
        ("content.threadID", PostKeys.thread.name),
        ("content.categoryID", PostKeys.category.name),
        ("content.userInfo", PostKeys.userInfo.name),
        ("category.id", "category id"),
        ("minimalActions", CategoryOptionKeys.minimalActions.name),
        ("behavior .textInput", "'behavior': <'text-input'>"),
        ("content.", ""),
        ("category.", ""),
    ]
}
