import DBusCore
import DBusTestSupport
import Foundation
import Synchronization

@testable import NotificationBridge

/// A stand-in for xdg-desktop-portal's notification interface at version 2, as its interface description documents
/// it (Debian 12 ships version 1): `AddNotification`, `RemoveNotification`, the `version` and `SupportedOptions`
/// properties, and `ActionInvoked(s id, s action, av parameter)` sent to the connection that added the notification,
/// with the button's target, then the platform data (`activation-token`), then the typed text of a reply button.
final class PortalStandIn: Sendable {
    /// A call the stand-in received.
    enum Call: Sendable, Hashable {
        case add(id: String, notification: [String: DBusValue])
        case remove(id: String)
    }

    private struct State {
        var notifications: [String: (sender: String, notification: [String: DBusValue])] = [:]
        var continuation: AsyncStream<Call>.Continuation?
    }

    let connection: DBusConnection
    /// The calls, in order.
    let calls: AsyncStream<Call>
    private let state: Mutex<State>
    private static let path: DBusObjectPath = "/org/freedesktop/portal/desktop"

    private init(connection: DBusConnection) {
        self.connection = connection
        let (calls, continuation) = AsyncStream.makeStream(of: Call.self)
        self.calls = calls
        state = Mutex(State(continuation: continuation))
    }

    /// Exports the interface on `connection` and takes the portal's bus name.
    ///
    /// - Parameters:
    ///   - version: the `version` property.
    ///   - purposes: the button purposes listed in `SupportedOptions`.
    ///   - categories: the categories listed in `SupportedOptions`.
    static func start(
        on connection: DBusConnection, version: UInt32 = 2, purposes: [String] = ["im.reply-with-text"],
        categories: [String] = ["im.message", "alarm.ringing"]
    ) async throws -> PortalStandIn {
        let standIn = PortalStandIn(connection: connection)
        let options: DBusValue = .vardict([
            PortalWire.Option.buttonPurpose: .strings(purposes), PortalWire.Option.category: .strings(categories),
        ])
        let interface = DBusInterface(
            PortalWire.interface,
            methods: [
                DBusMethod("AddNotification", inputs: [.init("id", "s"), .init("notification", "a{sv}")]) { call in
                    guard case .string(let id) = call.arguments[0] else { return [] }
                    let entries = (call.arguments[1].stringKeyedEntries ?? [:]).mapValues(\.unwrappedVariant)
                    standIn.record(.add(id: id, notification: entries), sender: call.sender)
                    return []
                },
                DBusMethod("RemoveNotification", inputs: [.init("id", "s")]) { call in
                    standIn.record(.remove(id: try call.arguments.decode(String.self)), sender: call.sender)
                    return []
                },
            ],
            signals: [
                DBusSignalDescription(
                    "ActionInvoked", arguments: [.init("id", "s"), .init("action", "s"), .init("parameter", "av")])
            ],
            properties: [
                .readOnly("version", "u") { .uint32(version) },
                .readOnly("SupportedOptions", "a{sv}") { options },
            ])
        try await connection.export([interface], at: path)
        _ = try await connection.requestName(PortalWire.busName)
        return standIn
    }

    /// A desktop's backend beside the portal (`org.freedesktop.impl.portal.desktop.NAME`), with only the `version` of
    /// its notification interface: what the portal's host side reads to learn which keys reach the desktop.
    static func startBackend(on connection: DBusConnection, name: String, version: UInt32) async throws {
        let interface = DBusInterface(
            PortalInfo.backendInterface, properties: [.readOnly("version", "u") { .uint32(version) }])
        try await connection.export([interface], at: path)
        _ = try await connection.requestName(PortalInfo.backendNamePrefix + name)
    }

    private func record(_ call: Call, sender: String) {
        state.withLock { state in
            switch call {
            case .add(let id, let notification): state.notifications[id] = (sender, notification)
            case .remove(let id): state.notifications[id] = nil
            }
            state.continuation?.yield(call)
        }
    }

    /// What the notification `id` was posted with, or `nil` when it is not shown.
    func notification(id: String) -> [String: DBusValue]? {
        state.withLock { $0.notifications[id]?.notification }
    }

    /// The user clicks the button of `action` (or, for `default`, the body), with a token in the platform data and,
    /// for a reply button, typed text: `ActionInvoked` goes to the connection that added the notification.
    func invoke(id: String, action: String, token: String? = nil, text: String? = nil) throws {
        guard let (sender, notification) = state.withLock({ $0.notifications[id] }) else {
            throw TestSupportError("the portal shows no notification \(id)")
        }
        var target: DBusValue?
        if action == notification[PortalWire.Key.defaultAction]?.stringValue {
            target = notification[PortalWire.Key.defaultActionTarget]
        } else {
            let buttons =
                notification[PortalWire.Key.buttons].flatMap { value -> [DBusValue]? in
                    if case .array(_, let buttons) = value { buttons } else { nil }
                } ?? []
            guard
                let button = buttons.compactMap(\.stringKeyedEntries).first(where: {
                    $0[PortalWire.Button.action]?.unwrappedVariant.stringValue == action
                })
            else { throw TestSupportError("notification \(id) has no button for \(action)") }
            target = button[PortalWire.Button.target]?.unwrappedVariant
        }
        var parameter: [DBusValue] = []
        if let target { parameter.append(.variant(target)) }
        var platformData: [String: DBusValue] = [:]
        if let token { platformData[PortalWire.activationToken] = .string(token) }
        parameter.append(.variant(.vardict(platformData)))
        if let text { parameter.append(.variant(.string(text))) }
        try connection.emit(
            path: Self.path, interface: PortalWire.interface, member: "ActionInvoked",
            arguments: [.string(id), .string(action), .array(element: "v", parameter)], destination: sender)
        state.withLock { $0.notifications[id] = nil }
    }
}
