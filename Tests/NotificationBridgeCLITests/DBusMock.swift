import DBusCore
import DBusTestSupport
import Foundation

/// python-dbusmock on a private bus: its notification daemon template (as libnotify's own tests use it) or a fake
/// desktop portal, with the calls it recorded and the signals a test makes it send.
struct DBusMock {
    let process: ChildProcess
    let connection: DBusConnection
    let busName: String
    let path: DBusObjectPath

    /// The Python that has python-dbusmock (Debian's `python3-dbusmock`), when it is installed.
    static let python: String? = {
        let python = "/usr/bin/python3"
        let module = "/usr/lib/python3/dist-packages/dbusmock/__init__.py"
        return FileManager.default.fileExists(atPath: module) ? python : nil
    }()

    /// The capabilities the notification daemon template has by default, as libnotify's tests give them.
    static let defaultCapabilities = [
        "body", "body-markup", "icon-static", "image/svg+xml", "private-synchronous", "append", "private-icon-only",
        "truncation",
    ]

    /// The template's notification daemon with `capabilities`; its `GetServerInformation` reports specification 1.1
    /// and its ids count from 1.
    static func notificationDaemon(on bus: PrivateBus, capabilities: [String] = defaultCapabilities) async throws
        -> DBusMock
    {
        let parameters = "{\"capabilities\": \"\(capabilities.joined(separator: " "))\"}"
        return try await start(
            ["--template", "notification_daemon", "-p", parameters], on: bus, busName: "org.freedesktop.Notifications",
            path: "/org/freedesktop/Notifications")
    }

    /// A desktop portal with the Notification interface, version 2: `AddNotification` and `RemoveNotification` are
    /// recorded, `ActionInvoked` is sent with ``emitPortalAction(id:action:)``.
    static func portal(on bus: PrivateBus) async throws -> DBusMock {
        let interface = "org.freedesktop.portal.Notification"
        let mock = try await start(
            ["org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", interface], on: bus,
            busName: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop")
        for (method, signature) in [("AddNotification", "sa{sv}"), ("RemoveNotification", "s")] {
            _ = try await mock.callMock(
                "AddMethod",
                [.string(interface), .string(method), .string(signature), .string(""), .string("")])
        }
        _ = try await mock.callMock(
            "AddProperty", [.string(interface), .string("version"), .variant(.uint32(2))])
        return mock
    }

    private static func start(_ arguments: [String], on bus: PrivateBus, busName: String, path: DBusObjectPath)
        async throws -> DBusMock
    {
        guard let python else { throw TestSupportError("python-dbusmock is not installed; make test installs it") }
        let connection = try await bus.connect()
        let owners = try await connection.nameOwnerChanges(of: busName)
        // Its log of calls goes to standard output: nowhere.
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(devNull) }
        let process = try ChildProcess.spawn(
            [python, "-m", "dbusmock"] + arguments, environment: bus.environment, standardOutput: devNull)
        do {
            try await withTimeout(.seconds(30), waitingFor: "python-dbusmock to own \(busName)") {
                for await owner in owners where owner != nil { return }
            }
        } catch {
            _ = process.stop(grace: .seconds(2))
            throw error
        }
        return DBusMock(process: process, connection: connection, busName: busName, path: path)
    }

    /// The arguments of each call of `method` the mock received, in order.
    func calls(_ method: String) async throws -> [[DBusValue]] {
        let reply = try await callMock("GetMethodCalls", [.string(method)])
        guard case .array(_, let calls)? = reply.first else { throw TestSupportError("GetMethodCalls: \(reply)") }
        return calls.map { call in
            guard case .structure(let fields) = call, fields.count == 2, case .array(_, let arguments) = fields[1]
            else { return [] }
            return arguments.map(\.unwrappedVariant)
        }
    }

    /// The arguments of the one call of `method`; fails the test when there were none or several.
    func onlyCall(_ method: String) async throws -> [DBusValue] {
        let calls = try await calls(method)
        guard calls.count == 1 else {
            throw TestSupportError("\(method) was called \(calls.count) times, not once: \(calls)")
        }
        return calls[0]
    }

    /// Makes the notification daemon send `signal` (`ActionInvoked`, `ActivationToken` or `NotificationClosed`).
    func emit(_ member: String, signature: String, _ arguments: [DBusValue]) async throws {
        _ = try await callMock(
            "EmitSignal",
            [
                .string("org.freedesktop.Notifications"), .string(member), .string(signature),
                .array(element: "v", arguments.map(DBusValue.variant)),
            ])
    }

    /// Makes the portal send `ActionInvoked(id, action, [])`.
    func emitPortalAction(id: String, action: String) async throws {
        _ = try await callMock(
            "EmitSignal",
            [
                .string("org.freedesktop.portal.Notification"), .string("ActionInvoked"), .string("ssav"),
                .array(
                    element: "v",
                    [.variant(.string(id)), .variant(.string(action)), .variant(.array(element: "v", []))]
                ),
            ])
    }

    private func callMock(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: busName, path: path, interface: "org.freedesktop.DBus.Mock", method: method,
            arguments: arguments, timeout: .seconds(20))
    }

    func stop() async {
        _ = process.stop(grace: .seconds(2))
        await connection.close()
    }
}
