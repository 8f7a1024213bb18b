import DBusCore

extension BridgeProxy {
    /// `TurnOnFocus(s name, a{sv} options)`: turns on the focus mode `focus` names, with what it lets through.
    public func turnOnFocus(_ focus: FocusRequest) async throws {
        try await call(.turnOnFocus(name: focus.name, options: focus.options))
    }

    /// `TurnOffFocus()`: turns off the focus mode that is on.
    public func turnOffFocus() async throws {
        try await call(BridgeRequest.turnOffFocus)
    }

    /// `SetFocusSchedules(s name, as schedules)`: sets when the focus mode `name` turns itself on, each schedule
    /// written `DAYS HH:MM-HH:MM` (`mon-fri 22:00-07:00`); none: only by hand.
    public func setFocusSchedules(_ name: String, _ schedules: [String]) async throws {
        try await call(.setFocusSchedules(name: name, schedules: schedules))
    }

    /// `ListFocusModes()`: the focus modes, with what they let through and their schedules.
    public func focusModes() async throws -> [FocusModeListing] {
        try dictionaries(try await call(BridgeRequest.listFocusModes), of: .listFocusModes).compactMap {
            FocusModeListing($0)
        }
    }
}
