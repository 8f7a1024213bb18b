import NotificationBridgeAPI

extension NotificationIDForm {
    /// What is wrong with an id given on the command line, written to follow the argument's name, in the words of
    /// the command line: the id comes from `send`; `nil` when it has the form of an id.
    static func problem(inCommandLine text: String) -> String? {
        guard !isValid(text) else { return nil }
        return "\(quotedForMessage(text)) is not a notification id; use the id 'notification-bridge send' printed "
            + "(16 hexadecimal digits, e.g. '3f9c2a7e1b4d5c6a')"
    }
}
