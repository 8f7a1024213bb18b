import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// The model's rules checked before a request is sent, so that a rule it breaks is reported with the option that
/// broke it (``KeyOptions``) rather than with the daemon's key.
enum LocalValidation {
    /// Checks a notification as the daemon will, before it is sent, so that a rule it breaks is reported with the
    /// option that broke it. A dictionary the daemon cannot read is left for the daemon, whose message names the key.
    ///
    /// - Throws: ``CLIFailure`` with status 2 (usage).
    static func check(post entries: WireEntries) throws {
        guard let post = try? NotificationPost(decoding: entries.value) else { return }
        do throws(NotificationValidationError) {
            // Whether the category is registered is the daemon's to say.
            try post.content.validate(isCategoryRegistered: { _ in true })
        } catch {
            throw failure(error)
        }
    }

    /// Checks a category as the daemon will, before it is registered (see ``check(post:)``).
    ///
    /// - Throws: ``CLIFailure`` with status 2 (usage).
    static func check(categoryID id: String, actions: [DBusValue], options: WireEntries) throws {
        guard
            let category = try? CategoryWire.decode(
                id: id, actions: .array(element: "a{sv}", actions), options: options.value)
        else { return }
        do throws(NotificationValidationError) {
            try category.validate()
        } catch {
            throw failure(error)
        }
    }

    private static func failure(_ error: NotificationValidationError) -> CLIFailure {
        CLIFailure(
            "notification-bridge: " + error.message(naming: KeyOptions.name(ofModelPath:)), status: ExitStatus.usage)
    }
}
