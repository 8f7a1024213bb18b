import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// Server hints that `Post` has keys for become those keys, as notify-send users write them (`int:transient:1`).
///
/// The names matched here are freedesktop hint names (some spelled like the keys they become), not keys of `Post`.
extension HintSpec {
    /// The freedesktop hint that names the server's category of a notification.
    static let categoryHint = "category"

    /// Adds the hints to `entries`: those the daemon has keys for as those keys, the rest (and `serverCategory` as
    /// the `category` hint) under `hints`, after the bridge's own.
    ///
    /// - Throws: `ValidationError` for a hint the bridge sets itself that no key takes, naming the option to use.
    static func apply(_ hints: [HintSpec], serverCategory: String?, to entries: inout WireEntries) throws {
        var others: [String: DBusValue] = [:]
        for hint in hints {
            switch (hint.name, hint.value) {
            case ("urgency", .byte), ("urgency", .int32), ("urgency", .string):
                entries.setUnchecked(PostKeys.urgency, hint.value)
            case ("desktop-entry", .string): entries.setUnchecked(PostKeys.desktopEntry, hint.value)
            case ("image-path", .string), ("image_path", .string): entries.setUnchecked(PostKeys.image, hint.value)
            case ("sound-name", .string), ("sound-file", .string): entries.setUnchecked(PostKeys.sound, hint.value)
            case ("suppress-sound", .boolean(let flag)): if flag { entries[PostKeys.sound] = NotificationSound.none }
            case ("transient", .boolean(let flag)): entries[PostKeys.transient] = flag
            case ("resident", .boolean(let flag)): entries[PostKeys.resident] = flag
            case ("transient", .int32(let number)): entries[PostKeys.transient] = number != 0
            case ("resident", .int32(let number)): entries[PostKeys.resident] = number != 0
            case ("transient", .byte(let number)): entries[PostKeys.transient] = number != 0
            case ("resident", .byte(let number)): entries[PostKeys.resident] = number != 0
            default:
                if let error = hint.ownedError() { throw error }
                others[hint.name] = hint.value
            }
        }
        if let serverCategory { others[categoryHint] = .string(serverCategory) }
        if !others.isEmpty { entries[PostKeys.hints] = others }
    }
}
