import DBusCore

/// The app's side of `org.freedesktop.Application` on the portal path, for an app that D-Bus activation starts
/// (``DesktopNotificationCenter/Configuration/activatableAppID``).
///
/// The portal activates a button whose action name starts with `app.` on the app itself: it calls `ActivateAction` with
/// the action name (without `app.`), the button's target and the platform data on the app's id, which D-Bus activation
/// starts when the app is not running. The center takes such a call as it takes the portal's `ActionInvoked`.
enum PortalApplication {
    static let interface = "org.freedesktop.Application"

    /// The object path of `appID`, as the specification derives it: `/` and the id, dots made slashes and dashes
    /// underscores.
    static func objectPath(of appID: String) -> String {
        "/" + String(appID.map { $0 == "." ? "/" : ($0 == "-" ? "_" : $0) })
    }

    /// The interface, with `ActivateAction` handed to `activated` as a portal signal; `Activate` and `Open` are
    /// answered and do nothing more (raising a window is the app's business).
    static func make(activated: @escaping @Sendable (PortalSignal) async -> Void) -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")]) { _ in [] },
                DBusMethod("Open", inputs: [.init("uris", "as"), .init("platform_data", "a{sv}")]) { _ in [] },
                DBusMethod(
                    "ActivateAction",
                    inputs: [.init("action_name", "s"), .init("parameter", "av"), .init("platform_data", "a{sv}")]
                ) { call in
                    guard case .string(let action) = call.arguments[0],
                        case .array(_, let parameter) = call.arguments[1]
                    else { return [] }
                    let values = parameter.map(\.unwrappedVariant) + [call.arguments[2]]
                    let read = PortalSignal(id: "", action: action, parameter: values)
                    // The id comes from the target: the portal gives none with an activation.
                    guard let id = read.target?.notificationID else { return [] }
                    await activated(
                        PortalSignal(
                            id: id, action: action, target: read.target, activationToken: read.activationToken,
                            text: read.text))
                    return []
                },
            ])
    }
}

extension DesktopNotificationCenter {
    /// Exports `org.freedesktop.Application` for `appID` and owns the name, so that the portal can activate the
    /// notifications' actions on this run.
    func exportApplication(appID: String) async throws {
        let path = try DBusObjectPath(PortalApplication.objectPath(of: appID))
        try await connection.export(
            [PortalApplication.make { [weak self] signal in await self?.activated(signal) }], at: path)
        let reply = try await connection.requestName(appID, flags: [.doNotQueue])
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw DBusFailure(
                name: DBusFailure.Name.failed,
                message: "cannot own \(appID), the app id the portal activates actions on: another run of the app "
                    + "has it; use one center per app")
        }
    }

    /// An action the portal activated on the app: taken now, or once the categories are set.
    func activated(_ signal: PortalSignal) async {
        if categories.isEmpty {
            heldActivations.append(signal)
            return
        }
        await process(signal)
    }

    /// Takes the actions held until the categories were set.
    func releaseHeldActivations() {
        guard !heldActivations.isEmpty else { return }
        let held = heldActivations
        heldActivations = []
        work.yield { [weak self] in
            for signal in held { await self?.process(signal) }
        }
    }
}
