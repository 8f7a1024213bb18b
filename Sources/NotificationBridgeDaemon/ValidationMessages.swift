import DBusCore
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
        ("content.sound.named", "sound"),
        ("content.sound.file", "sound"),
        (".behavior.submitButtonTitle", ".text-input-button-title"),
        (".behavior.placeholder", ".text-input-placeholder"),
        ("content.appName", "app-name"),
        ("content.desktopEntry", "desktop-entry"),
        ("content.defaultActionLabel", "default-action"),
        ("content.threadID", "thread"),
        ("content.categoryID", "category"),
        ("content.userInfo", "user-info"),
        ("category.id", "category id"),
        ("minimalActions", "minimal-actions"),
        ("behavior .textInput", "'behavior': <'text-input'>"),
        ("content.", ""),
        ("category.", ""),
    ]
}
