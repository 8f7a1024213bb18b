/// The names of the XDG notification portal's wire format (`org.freedesktop.portal.Notification`, versions 1 and 2):
/// the keys of `AddNotification`'s dictionary and its buttons, and their values. They are the portal's words, spelled
/// here once, and not the keys of the bridge's own interface.
enum PortalWire {
    /// The portal's bus name.
    static let busName = PortalInfo.busName
    /// The notification interface.
    static let interface = PortalInfo.interface

    /// Keys of the notification dictionary.
    enum Key {
        static let title = "title"
        static let body = "body"
        static let icon = "icon"
        static let priority = "priority"
        static let defaultAction = "default-action"
        static let defaultActionTarget = "default-action-target"
        static let buttons = "buttons"
        /// Version 2.
        static let sound = "sound"
        /// Version 2.
        static let category = "category"
        /// Version 2.
        static let displayHint = "display-hint"
    }

    /// Keys of a button's dictionary.
    enum Button {
        static let label = "label"
        static let action = "action"
        static let target = "target"
        /// Version 2.
        static let purpose = "purpose"
    }

    /// Keys of the target the bridge gives every button and the default action: a dictionary that names the action
    /// and carries the notification's category and user info, so that a response still means something when the
    /// notification was posted by an earlier run of the app.
    enum Target {
        static let action = "action"
        /// The bridge's id of the notification: for a run of the app that the portal started to take the action.
        static let notificationID = "id"
        static let category = "category"
        static let userInfo = "user-info"
    }

    /// What starts a button's action name that the portal activates on the app itself
    /// (`org.freedesktop.Application.ActivateAction`) instead of sending `ActionInvoked`.
    static let applicationActionPrefix = "app."

    /// Keys of `SupportedOptions` (version 2).
    enum Option {
        static let category = PortalInfo.categoryOption
        static let buttonPurpose = PortalInfo.buttonPurposeOption
    }

    /// The freedesktop hint whose value becomes the portal's `category` (version 2).
    static let freedesktopCategoryHint = "category"
    /// The key of the platform data (version 2) that holds the activation token.
    static let activationToken = "activation-token"
    /// The button purpose that asks the desktop for a text field; the typed text comes back in the parameter.
    static let replyWithText = PortalInfo.replyWithText
    /// Names of sounds (version 2).
    static let defaultSound = "default"
    static let silentSound = "silent"
    /// Display hints (version 2).
    static let transientHint = "transient"
    static let persistentHint = "persistent"
    /// The kinds of serialized icons and sounds.
    static let themed = "themed"
    static let bytes = "bytes"
}
