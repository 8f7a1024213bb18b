import DBusCore

extension BridgeProxy {
    /// `GetSettings(s app) -> a{sv}`: the app's notification settings.
    public func settings(app: String) async throws -> AppSettingsRecord {
        let reply = try await call(.getSettings(appID: app))
        guard let value = reply.first else { throw Self.unexpected(reply, from: .getSettings) }
        return try AppSettingsRecord(value)
    }

    /// `SetSettings(s app, a{sv} settings)`: changes the fields `change` gives; `do-not-disturb` is global.
    public func setSettings(app: String, _ change: SettingsChange) async throws {
        try await call(.setSettings(appID: app, settings: change.entries.value))
    }

    /// `ListSettings() -> aa{sv}`: the settings of every app that has posted or has settings, by app.
    public func listSettings() async throws -> [AppSettingsRecord] {
        try dictionaries(try await call(BridgeRequest.listSettings), of: .listSettings).map {
            try AppSettingsRecord($0)
        }
    }
}
