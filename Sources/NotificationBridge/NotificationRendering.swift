/// Choices the bridge makes where the freedesktop protocol has no equivalent, reported by `GetServerInformation`.
public struct NotificationRendering: Sendable, Hashable {
    /// Where destructive actions go among the buttons.
    public enum DestructiveOrder: String, Sendable, Hashable, CaseIterable {
        /// First, as an action sheet puts its destructive button.
        case first
        /// Where the category lists them.
        case asGiven = "as-given"
        /// Last.
        case last
    }

    /// Where destructive actions go. Whatever the order, a destructive action is never the one dropped when the
    /// server shows fewer buttons than there are actions.
    public var destructiveOrder: DestructiveOrder
    /// Text put before a destructive action's label (for example `"⚠ "`), since no server colours buttons; empty for
    /// none.
    public var destructiveMarker: String

    /// The text put before a destructive action's label on `server`: ``destructiveMarker`` when it is set, else the
    /// marker the server reads as destructive (``NotificationServerInfo/destructiveMarker``), else none.
    public func destructiveMarker(on server: NotificationServerInfo) -> String {
        destructiveMarker.isEmpty ? server.destructiveMarker ?? "" : destructiveMarker
    }

    /// Makes a rendering policy.
    public init(destructiveOrder: DestructiveOrder = .first, destructiveMarker: String = "") {
        self.destructiveOrder = destructiveOrder
        self.destructiveMarker = destructiveMarker
    }
}

/// How a text-input action reaches the user on a given server.
public enum TextInputRendering: String, Sendable, Hashable {
    /// The server's own inline reply field (`inline-reply`), or the portal's reply button (purpose
    /// `im.reply-with-text`, version 2).
    case inlineReply = "inline-reply"
    /// A button that opens the bridge's prompt (zenity, kdialog, yad or a configured command).
    case prompt
    /// A plain button; the response carries no text (the action's fallback policy).
    case buttonWithoutText = "button-without-text"
    /// Not shown (the action's fallback policy, or a server without actions).
    case hidden
}
