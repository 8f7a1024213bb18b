import DBusCore

extension BridgeProxy {
    /// `GetSettings(s app) -> a{sv}`: the app's notification settings.
    public func settings(app: String) async throws -> AppSettingsRecord {
        let reply = try await call("GetSettings", [.string(app)])
        guard let value = reply.first else { throw Self.unexpected(reply, from: "GetSettings") }
        return try AppSettingsRecord(value)
    }

    /// `SetSettings(s app, a{sv} settings)`: changes the fields `change` gives; `do-not-disturb` is global.
    public func setSettings(app: String, _ change: SettingsChange) async throws {
        try await call("SetSettings", [.string(app), change.entries.value])
    }

    /// `ListSettings() -> aa{sv}`: the settings of every app that has posted or has settings, by app.
    public func listSettings() async throws -> [AppSettingsRecord] {
        try dictionaries(try await call("ListSettings"), of: "ListSettings").map { try AppSettingsRecord($0) }
    }
}
