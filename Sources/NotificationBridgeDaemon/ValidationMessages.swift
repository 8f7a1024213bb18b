import DBusCore
import NotificationBridgeAPI
import NotificationModel

extension NotificationValidationError {
    /// The error as the D-Bus API reports it: `UnknownCategory` for a category that is not registered,
    /// `InvalidArgument` for everything else, each field named by the key that carries it (``ValidationField``:
    /// `content.appName` is `app-name`, `category.actions[1].behavior.placeholder` is
    /// `actions[1].text-input-placeholder`).
    var bridgeFailure: DBusFailure {
        if case .unknownCategory = self {
            return DBusFailure(name: BridgeError.unknownCategory, message: wireMessage)
        }
        return BridgeError.invalid(wireMessage)
    }
}
