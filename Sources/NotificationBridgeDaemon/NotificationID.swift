import DBusCore
import NotificationBridgeAPI

/// The daemon's ids for notifications: 16 lowercase hexadecimal digits, drawn at random.
///
/// Random rather than counted, so that an id stays unique across daemon restarts (a client holding an old id never
/// reaches a newer notification) and cannot be guessed by a program that was not told it.
enum NotificationID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let number = generator.next() as UInt64
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Checks that `text` has the form of an id; whether it names a notification is checked by the caller.
    ///
    /// - Throws: `InvalidArgument` saying what ids look like.
    static func check(_ text: String, argument: String = "id") throws(DBusFailure) {
        try NotificationIDForm.check(text, argument: argument)
    }
}
