/// What the notification server said about itself: `GetServerInformation` and `GetCapabilities`.
public struct NotificationServerInfo: Sendable, Hashable {
    /// The server's product name, for example `dunst` or `gnome-shell`.
    public var name: String
    /// Its vendor.
    public var vendor: String
    /// Its version.
    public var version: String
    /// The specification version it claims (not a reliable feature test).
    public var specVersion: String
    /// Its capabilities, for example `actions`, `body-markup`, `inline-reply`.
    public var capabilities: Set<String>

    /// Describes a server.
    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: Set<String>) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// Whether the server shows actions at all.
    public var supportsActions: Bool { capabilities.contains("actions") }
    /// Whether the server takes typed replies itself (KDE's inline reply).
    public var supportsInlineReply: Bool { capabilities.contains("inline-reply") }
    /// Whether the server reads markup in the body, so plain text must be escaped.
    public var supportsBodyMarkup: Bool { capabilities.contains("body-markup") }
    /// Whether notifications stay in a history after they leave the screen.
    public var supportsPersistence: Bool { capabilities.contains("persistence") }

}
