/// The capabilities a notification server lists in `GetCapabilities`: the specification's, and the extensions the
/// bridge reads.
package enum ServerCapability: String, Sendable, CaseIterable {
    /// Shows action buttons.
    case actions
    /// Shows icons on action buttons (`action-icons` hint).
    case actionIcons = "action-icons"
    /// Shows the body.
    case body
    /// Follows hyperlinks in the body.
    case bodyHyperlinks = "body-hyperlinks"
    /// Shows images in the body.
    case bodyImages = "body-images"
    /// Reads markup in the body.
    case bodyMarkup = "body-markup"
    /// Animates icons.
    case iconMulti = "icon-multi"
    /// Shows one frame of an icon.
    case iconStatic = "icon-static"
    /// Keeps notifications until the user acts on them.
    case persistence
    /// Plays sounds.
    case sound
    /// Takes an inline reply: an action keyed `inline-reply`, answered by `NotificationReplied` (KDE's extension).
    case inlineReply = "inline-reply"
}
