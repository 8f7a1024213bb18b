import NotificationServerKit

/// One numbered button of a notification as the terminal shows it.
public struct TerminalButton: Sendable, Hashable {
    /// The number the user types, from 1.
    public var number: Int
    /// The action key sent in `ActionInvoked`.
    public var key: String
    /// The label without the destructive marker.
    public var label: String
    /// Whether the label carried the destructive marker.
    public var isDestructive: Bool

    /// The buttons of `notification`, numbered in order.
    ///
    /// - Parameters:
    ///   - keys: the keys of the actions shown as buttons (``NotificationServer/buttons(of:)``: every action but
    ///     `default`, and `inline-reply` where it is a reply field).
    ///   - destructiveMarker: the text a client puts before a destructive action's label (NotificationBridge's
    ///     `--destructive-marker`); empty to mark none.
    public static func buttons(
        of notification: ServedNotification, keys: [String], destructiveMarker: String
    ) -> [TerminalButton] {
        let marker = destructiveMarker.trimmingWhitespace()
        return keys.enumerated().map { offset, key in
            var label = notification.action(key)?.label ?? key
            var isDestructive = false
            if !marker.isEmpty, label.hasPrefix(marker) {
                isDestructive = true
                label = label.dropFirst(marker.count)[...].trimmingWhitespace()
            }
            return TerminalButton(number: offset + 1, key: key, label: label, isDestructive: isDestructive)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        self[...].trimmingWhitespace()
    }
}
