import DBusCore
import DBusTestSupport
import FreedesktopNotifications
import NotificationModel
import Testing

@testable import NotificationBridge

/// The center on the portal's version 2, against a stand-in that implements it as documented: the reply button, the
/// activation token, sound, and withdrawing.
@Suite struct PortalVersion2Tests {
    /// A private bus with the stand-in, and a center forced onto the portal path.
    static func with(_ body: (DesktopNotificationCenter, PortalStandIn, PrivateBus) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let portalConnection = try await bus.connect()
            let standIn = try await PortalStandIn.start(on: portalConnection)
            let connection = try await bus.connect()
            var configuration = DesktopNotificationCenter.Configuration(appName: "Mail", promptCommand: ["/bin/false"])
            configuration.path = .portal
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil, configuration)
            try await center.running {
                try await center.setNotificationCategories([BridgeFixture.message()])
                try await body(center, standIn, bus)
            }
            await connection.close()
            await portalConnection.close()
        }
    }

    static func added(_ standIn: PortalStandIn) async throws -> (id: String, notification: [String: DBusValue]) {
        let calls = standIn.calls
        return try await withTimeout(.seconds(10), waitingFor: "AddNotification") {
            for await call in calls {
                if case .add(let id, let notification) = call { return (id, notification) }
            }
            throw TestSupportError("the portal's calls ended while waiting for AddNotification")
        }
    }

    @Test func theServerInformationIsThePortals() async throws {
        try await Self.with { center, _, _ in
            let info = await center.serverInformation()
            #expect(info.name == "xdg-desktop-portal")
            #expect(info.version == "2")
            #expect(info.supportsInlineReply)
        }
    }

    @Test func aReplyButtonBringsTheTypedTextAndTheTokenToTheHandler() async throws {
        try await Self.with { center, standIn, _ in
            let id = try await center.post(BridgeFixture.content())
            let (postedID, notification) = try await Self.added(standIn)
            #expect(postedID == id)
            #expect(notification[PortalWire.Key.title] == .string("Ann"))
            try standIn.invoke(id: id, action: "reply", token: "tok-9", text: "see you at 12 <b>&</b>")
            let response = try await center.responses.first(within: .seconds(10), waitingFor: "the reply")
            #expect(response.notificationID == id)
            #expect(response.actionID == "reply")
            #expect(response.userText == "see you at 12 <b>&</b>")
            #expect(response.userInfo == BridgeFixture.content().userInfo)
            // A background action raises nothing: its token is of no use.
            #expect(response.activationToken == nil)
        }
    }

    @Test func aForegroundActionCarriesTheActivationToken() async throws {
        try await Self.with { center, standIn, _ in
            var content = BridgeFixture.content()
            content.categoryID = nil
            content.actions = [BridgeFixture.open]
            let id = try await center.post(content)
            _ = try await Self.added(standIn)
            try standIn.invoke(id: id, action: "open", token: "tok-7")
            let response = try await center.responses.first(within: .seconds(10), waitingFor: "the response")
            #expect(response.actionID == "open")
            #expect(response.activationToken == "tok-7")
        }
    }

    @Test func aForegroundActionRaisesTheAppWithThePortalsToken() async throws {
        try await Self.with { center, standIn, bus in
            let app = try await bus.connect()
            let activations = AsyncStream.makeStream(of: [DBusValue].self)
            try await app.export(
                [
                    DBusInterface(
                        "org.freedesktop.Application",
                        methods: [
                            DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")]) { call in
                                activations.continuation.yield(call.arguments)
                                return []
                            }
                        ])
                ], at: "/org/example/TestApp")
            _ = try await app.requestName("org.example.TestApp")
            var content = BridgeFixture.content()
            content.categoryID = nil
            content.actions = [BridgeFixture.open]
            content.desktopEntry = "org.example.TestApp"
            let id = try await center.post(content)
            _ = try await Self.added(standIn)
            try standIn.invoke(id: id, action: "open", token: "tok-5")
            let arguments = try await activations.stream.first(waitingFor: "the app to be raised")
            let platformData = try #require(arguments.first?.stringKeyedEntries)
            #expect(platformData[PortalWire.activationToken]?.unwrappedVariant == .string("tok-5"))
            let response = try await center.responses.first(within: .seconds(10), waitingFor: "the response")
            #expect(response.activationToken == "tok-5")
            await app.close()
        }
    }

    @Test func soundAndDisplayHintsAreSent() async throws {
        try await Self.with { center, standIn, _ in
            var content = BridgeFixture.content()
            content.sound = .none
            content.isResident = true
            _ = try await center.post(content)
            let (_, notification) = try await Self.added(standIn)
            #expect(notification[PortalWire.Key.sound] == .string("silent"))
            #expect(notification[PortalWire.Key.displayHint] == .strings(["persistent"]))
        }
    }

    @Test("a portal of version 2 whose backend reports version 0 (Debian 13's GTK backend) gets version 1's keys")
    func aVersion1BackendGetsNoVersion2Keys() async throws {
        try await Self.with { center, standIn, bus in
            let backendConnection = try await bus.connect()
            try await PortalStandIn.startBackend(on: backendConnection, name: "gtk", version: 0)
            // The center read the portal when it started; a fresh one reads the backend beside it.
            let connection = try await bus.connect()
            var configuration = DesktopNotificationCenter.Configuration(appName: "Mail", promptCommand: ["/bin/false"])
            configuration.path = .portal
            let second = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil, configuration)
            try await second.running {
                try await second.setNotificationCategories([BridgeFixture.message()])
                let info = await second.serverInformation()
                #expect(info.version == "1")
                #expect(info.specVersion == "portal 2, whose backend takes version 1's keys")
                #expect(!info.capabilities.contains(ServerCapability.sound.rawValue))
                var content = BridgeFixture.content()
                content.sound = .none
                content.isResident = true
                _ = try await second.post(content)
                let (_, notification) = try await Self.added(standIn)
                #expect(notification[PortalWire.Key.sound] == nil, "a version-1 backend drops sound")
                #expect(notification[PortalWire.Key.displayHint] == nil, "a version-1 backend drops display hints")
                #expect(notification[PortalWire.Key.body] != nil)
            }
            await connection.close()
            await backendConnection.close()
            _ = center
        }
    }

    @Test func withdrawingRemovesTheNotification() async throws {
        try await Self.with { center, standIn, _ in
            let id = try await center.post(BridgeFixture.content())
            _ = try await Self.added(standIn)
            #expect(await center.deliveredNotifications().map(\.id) == [id])
            await center.withdraw(id: id)
            let removed = try await standIn.calls.first(within: .seconds(10), waitingFor: "RemoveNotification")
            #expect(removed == .remove(id: id))
            #expect(await center.deliveredNotifications().isEmpty)
        }
    }
}
