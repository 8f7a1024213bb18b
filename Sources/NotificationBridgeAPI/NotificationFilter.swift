import DBusCore

/// Which notifications `ListDelivered`, `ListPending` and `WithdrawAll` act on. Keys in ``FilterKeys``.
public struct NotificationFilter: Sendable, Hashable {
    /// The notifications posted under this app name, by any connection; `nil` for the caller's own.
    public var appName: String?
    /// Only those of this category.
    public var category: String?
    /// Only those of this thread.
    public var thread: String?

    /// Describes a filter.
    public init(appName: String? = nil, category: String? = nil, thread: String? = nil) {
        self.appName = appName
        self.category = category
        self.thread = thread
    }

    /// Reads a filter dictionary.
    ///
    /// - Throws: `InvalidArgument` for an unknown key or a value of the wrong type.
    package init(_ value: DBusValue) throws(DBusFailure) {
        let reader = try VariantDictionary(value, place: "filter", keys: FilterKeys.all)
        appName = try reader.decode(FilterKeys.appName)
        category = try reader.decode(FilterKeys.category)
        thread = try reader.decode(FilterKeys.thread)
    }

    /// The `a{sv}` value: the keys that are set.
    public var value: DBusValue {
        var entries = WireEntries()
        entries[FilterKeys.appName] = appName
        entries[FilterKeys.category] = category
        entries[FilterKeys.thread] = thread
        return entries.value
    }
}
