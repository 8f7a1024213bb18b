import DBusCore

extension BridgeProxy {
    /// `ListHistory(a{sv} filter) -> aa{sv}`: the notifications that ended, newest first.
    public func listHistory(_ filter: NotificationFilter) async throws -> [HistoryEntry] {
        try dictionaries(try await call(.listHistory(filter: filter.value)), of: .listHistory).compactMap(
            HistoryEntry.init)
    }

    /// `Act(s id, s action, a{sv} options)`: answers a notification of the history as a click on `action` would.
    ///
    /// - Parameters:
    ///   - id: The notification's id.
    ///   - action: One of the actions it offered, or `default` for its body.
    ///   - text: The typed text of a text-input action; it goes to the notification's handler alone.
    /// - Throws: ``BridgeError/notAnswerable`` for one dismissed, withdrawn, replaced or answered already;
    ///   ``BridgeError/notSupported`` for one whose poster has gone with no app attached to take the response;
    ///   ``BridgeError/unknownNotification`` for one the history does not hold. ``HistoryEntry/isAnswerable`` says
    ///   beforehand, by the same check.
    public func act(id: String, action: String, text: String? = nil) async throws {
        var options = WireEntries()
        options[ActOptionKeys.text] = text
        try await call(.act(id: id, action: action, options: options.value))
    }
}
