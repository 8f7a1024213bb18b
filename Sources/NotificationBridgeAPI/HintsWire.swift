import DBusCore

/// `hints`: server hints of the caller's own, which the bridge adds to those it sets itself.
public enum HintsWire {
    /// The server hints the bridge sets itself, and the key of `Post` that sets each instead.
    public static let owned: [String: String] = [
        "urgency": "the key '\(PostKeys.urgency.name)'", "desktop-entry": "the key '\(PostKeys.desktopEntry.name)'",
        "image-path": "the key '\(PostKeys.image.name)'", "image_path": "the key '\(PostKeys.image.name)'",
        "sound-name": "the key '\(PostKeys.sound.name)'", "sound-file": "the key '\(PostKeys.sound.name)'",
        "suppress-sound": "the key '\(PostKeys.sound.name)' with <'none'>",
        "resident": "the key '\(PostKeys.resident.name)'", "transient": "the key '\(PostKeys.transient.name)'",
        "sender-pid": "nothing: the bridge sends its own process id",
        "x-kde-reply-placeholder-text": "a text-input action's '\(ActionKeys.textInputPlaceholder.name)'",
        "x-kde-reply-submit-button-text": "a text-input action's '\(ActionKeys.textInputButtonTitle.name)'",
    ]

    /// Reads the `a{sv}`: one variant level is the dictionary's own; what is inside is the hint's value as given.
    static func decode(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> [String: DBusValue] {
        guard case .dictionary(let key, let valueType, let entries) = value, key == "s", valueType == "v" else {
            throw place.wrongType(value, expected: "a{sv}", example: "<{'x-canonical-append': <true>}>")
        }
        var hints: [String: DBusValue] = [:]
        for entry in entries {
            guard let name = entry.key.stringValue else { continue }
            if let instead = owned[name] {
                throw place.invalid("has \(quotedForMessage(name)), which the bridge sets itself; use " + instead)
            }
            if name.hasPrefix("x-kde-reply-") {
                throw place.invalid(
                    "has \(quotedForMessage(name)); the bridge sets the x-kde-reply-* hints from the "
                        + "notification's text-input action")
            }
            if case .variant(let inner) = entry.value { hints[name] = inner } else { hints[name] = entry.value }
        }
        return hints
    }
}
