import DBusCore

/// What a notify-send command line asks to show, before it is put into the terms of a server: the notification
/// server's `Notify` (``NotifySendFreedesktop``) or the desktop portal's `AddNotification` (``NotifySendPortal``).
///
/// Hints are kept under libnotify's names, in the order libnotify sets them, so that a later one of the same name wins:
/// the image (`-i`, as `image-path`), the category, the urgency, `transient`, then each `-h`.
struct NotifySendNotification: Sendable {
    /// The summary (the first argument).
    var summary: String
    /// The body after libnotify's backslash escapes; empty for none.
    var body: String
    /// `-a`; notify-send's own name without it.
    var appName: String
    /// `-n`: the app's icon, which the server may not show.
    var appIcon: String?
    /// `-i`: an icon name or an image file, shown as the notification's image.
    var image: String?
    /// `-c`, when given and not empty.
    var category: String?
    /// `-t`: -1 for the server's default, 0 never, else milliseconds.
    var expireTimeout: Int32
    /// `-r`: the server's id of the notification to replace, 0 for a new one.
    var replacesID: UInt32
    /// The hints by name (`-i`, `-c`, `-u`, `-e` and `-h`), without the ones libnotify adds as it sends.
    var hints: [String: DBusValue]
    /// The urgency hint's level: 0 low, 1 normal, 2 critical.
    var urgencyLevel: UInt8 {
        if case .byte(let level)? = hints[HintName.urgency] { return level }
        return 1
    }
    /// `-A`.
    var actions: NotifySendActions

    /// The hint names libnotify sets itself.
    enum HintName {
        static let imagePath = "image-path"
        static let imageData = "image-data"
        static let category = "category"
        static let urgency = "urgency"
        static let transient = "transient"
        static let senderPID = "sender-pid"
        static let desktopEntry = "desktop-entry"
    }

    /// The notification `options` describe.
    ///
    /// - Throws: ``NotifySendArguments/Mistake`` with libnotify's message for the first malformed `-h`.
    init(_ options: NotifySendArguments) throws(NotifySendArguments.Mistake) {
        summary = options.summary ?? ""
        body = options.body ?? ""
        appName = options.appName ?? NotifySend.programName
        appIcon = options.appIcon.flatMap { $0.isEmpty ? nil : $0 }
        image = options.icon.flatMap { $0.isEmpty ? nil : $0 }
        category = options.category.flatMap { $0.isEmpty ? nil : $0 }
        expireTimeout = options.expireTime
        replacesID = UInt32(bitPattern: options.replaceID)
        actions = NotifySendActions(options.actions)

        var hints: [String: DBusValue] = [:]
        if let image { hints[HintName.imagePath] = .string(image) }
        if let category { hints[HintName.category] = .string(category) }
        hints[HintName.urgency] = .byte(options.urgency.level)
        if options.transient { hints[HintName.transient] = .boolean(true) }
        for text in options.hints {
            let hint = try NotifySendHint(parsing: text)
            if let value = hint.value { hints[hint.name] = value }
        }
        self.hints = hints
    }
}

extension Urgency {
    /// The level the `urgency` hint carries.
    var level: UInt8 {
        switch self {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }
}
