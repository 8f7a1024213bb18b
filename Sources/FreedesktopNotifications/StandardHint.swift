/// The names of the hints of `Notify` that the specification and its common extensions define.
package enum StandardHint: String, Sendable, CaseIterable {
    /// `y`: 0 low, 1 normal, 2 critical.
    case urgency
    /// `s`: the kind of notification (`email.arrived`, …).
    case category
    /// `s`: the sending app's desktop file name, without `.desktop`.
    case desktopEntry = "desktop-entry"
    /// `(iiibiiay)`: raw image data.
    case imageData = "image-data"
    /// `s`: an icon name or a `file://` URI of an image.
    case imagePath = "image-path"
    /// `b`: the action keys are icon names.
    case actionIcons = "action-icons"
    /// `b`: kept by the server until the user acts on it.
    case resident
    /// `b`: never kept in the server's history.
    case transient
    /// `s`: a sound file to play.
    case soundFile = "sound-file"
    /// `s`: a themed sound to play.
    case soundName = "sound-name"
    /// `b`: play no sound.
    case suppressSound = "suppress-sound"
    /// `s`: the placeholder text of an inline reply (KDE's extension).
    case replyPlaceholderText = "x-kde-reply-placeholder-text"
    /// `s`: the label of an inline reply's submit button (KDE's extension).
    case replySubmitButtonText = "x-kde-reply-submit-button-text"
}
