import DBusCore

/// The form of the daemon's notification ids: 16 lowercase hexadecimal digits.
package enum NotificationIDForm {
    /// Whether `text` has the form of an id; whether it names a notification is checked by the daemon.
    package static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.count == 16 && utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// What is wrong with `text` as an id, written to follow its name (`is not a notification id; …`); `nil` when it
    /// has the form of one.
    package static func problem(with text: String) -> String? {
        guard !isValid(text) else { return nil }
        return "\(quotedForMessage(text)) is not a notification id; use the id Post returned (16 hexadecimal digits, "
            + "e.g. '3f9c2a7e1b4d5c6a')"
    }

    /// Checks that `text` has the form of an id; whether it names a notification is checked by the daemon.
    ///
    /// - Throws: `InvalidArgument` saying what ids look like.
    package static func check(_ text: String, argument: String = "id") throws(DBusFailure) {
        if let problem = problem(with: text) { throw BridgeError.invalid("\(argument) \(problem)") }
    }

    /// Checks that the value of a key has the form of an id.
    ///
    /// - Throws: `InvalidArgument` about the key (``KeyFailure``), saying what ids look like.
    package static func check(_ text: String, as key: KeyPlace) throws(DBusFailure) {
        if let problem = problem(with: text) { throw key.invalid(problem) }
    }
}
