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
}
