import DBusCore
import ProcessSupport

/// Raises an installed app, handing it the activation token so the compositor lets it take focus.
///
/// An app whose desktop file says `DBusActivatable=true` is activated over D-Bus (`org.freedesktop.Application`),
/// which starts it when it is not running; any other app is started from its desktop file's `Exec=` line through GIO,
/// with the token in `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID`.
///
/// Desktop files are read on a thread of their own, never on Swift's cooperative pool. Methods may be called from any
/// task, concurrently.
///
/// ```swift
/// let activator = AppActivator(connection: sessionBus)
/// try await activator.activate(desktopEntry: "org.example.Mail", token: response.activationToken)
/// ```
package struct AppActivator: Sendable {
    /// The session bus connection used for `org.freedesktop.Application` calls.
    package let connection: DBusConnection
    /// Folders searched, in order, for `<desktop-entry>.desktop`; `nil` means GIO's standard lookup through
    /// `XDG_DATA_HOME` and `XDG_DATA_DIRS` (their `applications` subfolders).
    package let applicationDirectories: [String]?
    /// Whether an app without a desktop file is still tried over D-Bus when its id is a valid bus name (a running
    /// `GApplication`, or one with only a D-Bus service file, can then still be raised).
    package let useDBusWithoutDesktopFile: Bool
    /// How long an `org.freedesktop.Application` call may take, D-Bus activation of the app included.
    package let timeout: Duration

    /// Makes an activator.
    ///
    /// - Parameters:
    ///   - connection: a session bus connection; it is used only for calls, so the daemon's own connection will do.
    ///   - applicationDirectories: where to look for desktop files instead of the XDG data folders (tests, sandboxes).
    ///   - useDBusWithoutDesktopFile: see ``useDBusWithoutDesktopFile``.
    ///   - timeout: see ``timeout``.
    package init(
        connection: DBusConnection, applicationDirectories: [String]? = nil, useDBusWithoutDesktopFile: Bool = true,
        timeout: Duration = .seconds(25)
    ) {
        self.connection = connection
        self.applicationDirectories = applicationDirectories
        self.useDBusWithoutDesktopFile = useDBusWithoutDesktopFile
        self.timeout = timeout
    }

    /// Raises the app (starting it if needed): `org.freedesktop.Application.Activate` for a D-Bus activatable app,
    /// its `Exec=` command otherwise.
    ///
    /// Returns once the app has answered the call, or once its command has been started (not when its window shows).
    /// GIO starts the command through its `gio-launch-desktop` helper, so a command that then fails to execute is not
    /// reported here.
    ///
    /// - Parameters:
    ///   - desktopEntry: the desktop file's name without `.desktop`, for example `org.example.App`.
    ///   - token: the activation token from the notification server (`ActivationToken`), or `nil` for none. It is
    ///     passed as `activation-token` and `desktop-startup-id` platform data, or in the command's environment.
    /// - Throws: ``DesktopIntegrationError`` saying what is missing: no desktop file, a command that cannot start,
    ///   or an app that did not answer over D-Bus.
    package func activate(desktopEntry: String, token: String?) async throws {
        let id = try DesktopEntryID.validated(desktopEntry)
        guard try await needsDBus(id, token: token) else { return }
        try await callApplication(id, method: "Activate", arguments: [Self.platformData(token: token)])
    }

    /// Asks the app to run one of its actions: `org.freedesktop.Application.ActivateAction(name, parameters,
    /// platform_data)`, which starts the app when it is not running.
    ///
    /// Only D-Bus activatable apps (or, with ``useDBusWithoutDesktopFile``, apps owning their id on the bus) can
    /// receive actions; for any other app this throws rather than drop the action: call
    /// ``activate(desktopEntry:token:)`` to at least raise it.
    ///
    /// - Parameters:
    ///   - desktopEntry: the app's desktop file name without `.desktop`, which is also its D-Bus name.
    ///   - action: the action's name as the app exports it (a `GAction` name for a `GApplication`).
    ///   - parameters: the action's parameter values; each is sent wrapped in a variant (`av`). A `GApplication`
    ///     takes one value; GLib 2.81+ turns several into a tuple.
    ///   - token: as for ``activate(desktopEntry:token:)``.
    /// - Throws: ``DesktopIntegrationError``.
    package func activateAction(desktopEntry: String, action: String, parameters: [DBusValue] = [], token: String?)
        async throws
    {
        let id = try DesktopEntryID.validated(desktopEntry)
        let directories = applicationDirectories
        let dbusActivatable = await DesktopWorkerThread.run {
            GIODesktopApp.isDBusActivatable(desktopEntry: id, directories: directories)
        }
        switch dbusActivatable {
        case true?:
            break
        case false?:
            throw DesktopIntegrationError.actionNeedsDBusActivation(desktopEntry: id, action: action)
        case nil:
            guard useDBusWithoutDesktopFile, DesktopEntryID.isBusName(id) else {
                throw DesktopIntegrationError.desktopEntryNotFound(id, searched: directories ?? [])
            }
        }
        let wrapped = DBusValue.array(element: "v", parameters.map(DBusValue.variant))
        try await callApplication(
            id, method: "ActivateAction", arguments: [.string(action), wrapped, Self.platformData(token: token)])
    }

    /// Launches the app's command unless it should be activated over D-Bus; returns whether it should.
    private func needsDBus(_ id: String, token: String?) async throws -> Bool {
        let directories = applicationDirectories
        let outcome = await DesktopWorkerThread.run {
            GIODesktopApp.launchUnlessDBusActivatable(desktopEntry: id, directories: directories, token: token)
        }
        switch outcome {
        case .dbusActivatable:
            return true
        case .launched:
            return false
        case .failed(let reason):
            throw DesktopIntegrationError.launchFailed(desktopEntry: id, reason: reason)
        case .notFound:
            guard useDBusWithoutDesktopFile, DesktopEntryID.isBusName(id) else {
                throw DesktopIntegrationError.desktopEntryNotFound(id, searched: directories ?? [])
            }
            return true
        }
    }

    private func callApplication(_ id: String, method: String, arguments: [DBusValue]) async throws {
        guard let path = DesktopEntryID.applicationObjectPath(for: id) else {
            throw DesktopIntegrationError.desktopEntryNotFound(id, searched: applicationDirectories ?? [])
        }
        do {
            _ = try await connection.call(
                destination: id, path: path, interface: "org.freedesktop.Application", method: method,
                arguments: arguments, timeout: timeout)
        } catch let failure as DBusFailure {
            throw DesktopIntegrationError.activationFailed(desktopEntry: id, failure)
        }
    }

    /// The `a{sv}` platform data: the token as both `activation-token` (Wayland) and `desktop-startup-id` (X11).
    static func platformData(token: String?) -> DBusValue {
        guard let token, !token.isEmpty else { return .vardict([:]) }
        return .vardict(["activation-token": .string(token), "desktop-startup-id": .string(token)])
    }

    /// The object path an app with this desktop id exports `org.freedesktop.Application` at: `/` + the id with `.`
    /// replaced by `/` and `-` by `_`, as the Desktop Entry Specification says; `nil` when the id is not a valid
    /// D-Bus name (such an app cannot be D-Bus activatable).
    package static func applicationObjectPath(forDesktopEntry desktopEntry: String) -> DBusObjectPath? {
        guard let id = try? DesktopEntryID.validated(desktopEntry) else { return nil }
        return DesktopEntryID.applicationObjectPath(for: id)
    }
}
