import DBusCore

/// A notification a ``NotificationServer`` holds: what the client sent, as the profile read it.
///
/// `hints` holds every hint exactly as received (the value inside each variant); the accessors below read the
/// well-known ones. ``urgency`` and ``actions`` are what the server applies after its profile's rules, so they may
/// differ from the raw request (an odd action list, a non-byte urgency); ``RecordedCall`` keeps the raw arguments.
public struct ServedNotification: Sendable, Hashable, Identifiable {
    /// One action: a key sent back in `ActionInvoked`, and the label shown on its button.
    public struct Action: Sendable, Hashable, CustomStringConvertible {
        /// The key; `default` is the click on the body, `inline-reply` KDE's reply field.
        public var key: String
        /// The label.
        public var label: String

        /// Makes an action.
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }

        /// `key=label`, as `notify-send --action` writes it.
        public var description: String { "\(key)=\(label)" }
    }

    /// The id, > 0; dead once the notification has closed.
    public var id: UInt32
    /// `app_name`.
    public var appName: String
    /// The `replaces_id` of the call that produced this version (0 for a new notification).
    public var replacesID: UInt32
    /// `app_icon`: an icon name or a `file://` URI, often empty.
    public var icon: String
    /// The summary (title).
    public var summary: String
    /// The body, as sent (markup is not interpreted).
    public var body: String
    /// The actions the server shows, in the order sent.
    public var actions: [Action]
    /// Every hint, keyed by name, with the value that was inside its variant.
    public var hints: [String: DBusValue]
    /// `expire_timeout` as sent: -1 the server default, 0 never, else milliseconds.
    public var expireTimeout: Int32
    /// The unique bus name of the connection that sent the latest `Notify` for it.
    public var sender: String
    /// The urgency the server applies: 0 low, 1 normal, 2 critical. A hint the profile does not accept counts as 1.
    public var urgency: UInt8

    /// Makes a notification value (the server makes these; tests and previews may too).
    public init(
        id: UInt32, appName: String, replacesID: UInt32 = 0, icon: String = "", summary: String, body: String = "",
        actions: [Action] = [], hints: [String: DBusValue] = [:], expireTimeout: Int32 = -1, sender: String,
        urgency: UInt8 = 1
    ) {
        self.id = id
        self.appName = appName
        self.replacesID = replacesID
        self.icon = icon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
        self.sender = sender
        self.urgency = urgency
    }

    /// The action with this key, or `nil`.
    public func action(_ key: String) -> Action? {
        actions.first { $0.key == key }
    }

    /// The `desktop-entry` hint: the app's desktop id, without `.desktop`.
    public var desktopEntry: String? { hints["desktop-entry"]?.stringValue }
    /// The `category` hint, such as `email.arrived`.
    public var category: String? { hints["category"]?.stringValue }
    /// The `resident` hint: the notification stays after an action.
    public var isResident: Bool { Self.flag(hints["resident"]) }
    /// The `transient` hint: the notification skips the server's history.
    public var isTransient: Bool { Self.flag(hints["transient"]) }
    /// The `image-path` hint.
    public var imagePath: String? { hints["image-path"]?.stringValue }
    /// The `sound-name` hint.
    public var soundName: String? { hints["sound-name"]?.stringValue }
    /// KDE's `x-kde-reply-placeholder-text` hint: the grey text in an empty reply field.
    public var inlineReplyPlaceholder: String? { hints["x-kde-reply-placeholder-text"]?.stringValue }
    /// KDE's `x-kde-reply-submit-button-text` hint: the label of the reply field's send button.
    public var inlineReplySubmitText: String? { hints["x-kde-reply-submit-button-text"]?.stringValue }
    /// KDE's `x-kde-reply-submit-button-icon-name` hint.
    public var inlineReplySubmitIconName: String? { hints["x-kde-reply-submit-button-icon-name"]?.stringValue }
    /// The `sender-pid` hint libnotify adds (an `int64`).
    public var senderPID: Int64? {
        guard let value = hints["sender-pid"] else { return nil }
        return Self.integer(value)
    }

    /// A boolean hint; dunst and others also accept an integer (old `notify-send` sent `int:transient:1`).
    private static func flag(_ value: DBusValue?) -> Bool {
        guard let value else { return false }
        if case .boolean(let flag) = value { return flag }
        return (integer(value) ?? 0) != 0
    }

    /// The value of any integer type, or `nil` for other types.
    static func integer(_ value: DBusValue) -> Int64? {
        switch value {
        case .byte(let number): Int64(number)
        case .int16(let number): Int64(number)
        case .uint16(let number): Int64(number)
        case .int32(let number): Int64(number)
        case .uint32(let number): Int64(number)
        case .int64(let number): number
        case .uint64(let number): Int64(exactly: number)
        default: nil
        }
    }
}
