import DBusCore

/// The form of the daemon's notification ids: 16 lowercase hexadecimal digits.
package enum NotificationIDForm {
    /// Checks that `text` has the form of an id; whether it names a notification is checked by the daemon.
    ///
    /// - Throws: `InvalidArgument` saying what ids look like.
    package static func check(_ text: String, argument: String = "id") throws(DBusFailure) {
        let utf8 = text.utf8
        guard utf8.count == 16, utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw BridgeError.invalid(
                "\(argument) \(quotedForMessage(text)) is not a notification id; use the id Post returned "
                    + "(16 hexadecimal digits, e.g. '3f9c2a7e1b4d5c6a')")
        }
    }
}
