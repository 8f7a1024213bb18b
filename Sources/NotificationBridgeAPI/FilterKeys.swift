import DBusCore

/// The keys of the filter (`a{sv}`) of `ListPending`, `ListDelivered` and `WithdrawAll`.
public enum FilterKeys {
    /// `app-name` (s).
    public static let appName = BridgeKey.string(
        "app-name", example: "<'Mail'>",
        summary: "the notifications posted under that app name, by any connection; without it, the caller's own")
    /// `category` (s).
    public static let category = BridgeKey.string(
        "category", example: "<'org.example.mail.message'>", summary: "only those of this category")
    /// `thread` (s).
    public static let thread = BridgeKey.string(
        "thread", example: "<'conversation-42'>", summary: "only those of this thread")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [appName.info, category.info, thread.info]
}

/// The keys of `Attach`'s `options` (`a{sv}`).
public enum AttachOptionKeys {
    /// `foreground` (b).
    public static let foreground = BridgeKey.boolean(
        "foreground", summary: "the app is frontmost: its scheduled notifications come to it as Fired")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [foreground.info]
}
