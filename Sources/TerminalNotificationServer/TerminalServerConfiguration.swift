import DBusCore
import NotificationServerKit

/// Everything `notification-terminal-server` is told on its command line.
public struct TerminalServerConfiguration: Sendable {
    /// The bus to serve on.
    public var bus: DBusConnection.Bus
    /// Whether to take `org.freedesktop.Notifications` from a server that allows it.
    public var replacesRunningServer: Bool
    /// The text clients put before a destructive action's label.
    public var destructiveMarker: String
    /// How text is dressed.
    public var style: TerminalStyle
    /// Whether to show a `> ` prompt (when the input is a terminal).
    public var showsPrompt: Bool
    /// What the server advertises and how it behaves.
    public var profile: NotificationServerProfile

    /// Describes a terminal server; the defaults are what `notification-terminal-server` with no options runs.
    public init(
        bus: DBusConnection.Bus = .session, replacesRunningServer: Bool = false,
        destructiveMarker: String = Self.defaultDestructiveMarker, style: TerminalStyle = .init(usesColor: false),
        showsPrompt: Bool = false, profile: NotificationServerProfile = .terminal
    ) {
        self.bus = bus
        self.replacesRunningServer = replacesRunningServer
        self.destructiveMarker = destructiveMarker
        self.style = style
        self.showsPrompt = showsPrompt
        self.profile = profile
    }

    /// `⚠`, the marker `make demo` asks notification-bridged to use.
    public static let defaultDestructiveMarker = "⚠"
}

extension NotificationServerProfile {
    /// The terminal server: actions, KDE's inline reply, body markup with hyperlinks, and persistence —
    /// notifications stay until the user acts on them, unless the client sets a timeout. `ActivationToken` before
    /// every `ActionInvoked`; signals to the sender only, as GNOME Shell and dunst send them; closed with reason 2
    /// after an action and reason 3 after a reply, as GNOME Shell and Plasma do.
    public static let terminal = NotificationServerProfile(
        capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "inline-reply", "persistence"],
        serverName: "notification-terminal-server", vendor: "NotificationBridge", version: "1.0", specVersion: "1.3",
        signalDelivery: .unicastToSender, closeAfterAction: .dismissed, replyDelivery: .plasma,
        sendsActivationTokenBeforeAction: true, urgencyHint: .anyInteger, defaultTimeout: nil,
        honorsExpireTimeout: true)
}
