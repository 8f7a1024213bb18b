import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// The center on the portal path against Debian's real xdg-desktop-portal 1.16 (interface version 1) and its GTK
/// backend, which forwards to the NotificationServerKit server the test drives: posting, each kind of action,
/// withdrawing.
///
/// The test process is not sandboxed, so the portal knows it as a host app: version 1.16 gives it the empty app id,
/// and the GTK backend then sends `ActionInvoked` back through the portal (no app to activate by id). One test at a
/// time: each starts Xvfb, the portal and a GTK process, a load the other suites' bounded waits should not share.
@Suite(
    .serialized, .enabled(if: RealPortal.isInstalled, "xdg-desktop-portal and xdg-desktop-portal-gtk are not installed")
)
struct RealPortalTests {
    struct Fixture: Sendable {
        let bus: PrivateBus
        let portal: RealPortal
        let server: NotificationServer
        let serverEvents: AsyncStream<NotificationServerEvent>
        let center: DesktopNotificationCenter

        /// The next notification the server shows.
        func nextServed() async throws -> ServedNotification {
            let events = serverEvents
            return try await withTimeout(.seconds(20), waitingFor: "the portal's backend to show the notification") {
                for await event in events {
                    switch event {
                    case .notified(let served), .replaced(_, let served): return served
                    default: continue
                    }
                }
                throw TestSupportError("the server's events ended")
            }
        }

        /// The next notification the server closes.
        func nextClosed() async throws -> ServedNotification {
            let events = serverEvents
            return try await withTimeout(.seconds(20), waitingFor: "the notification to close") {
                for await event in events {
                    if case .closed(let served, _) = event { return served }
                }
                throw TestSupportError("the server's events ended")
            }
        }

        /// Clicks the button with `label`, as the user would.
        func click(_ label: String, on served: ServedNotification) async throws {
            guard let action = served.actions.first(where: { $0.label == label }) else {
                throw TestSupportError("no button \(label) among \(served.actions)")
            }
            try await server.invokeAction(id: served.id, key: action.key)
        }

        func nextResponse() async throws -> NotificationResponse {
            do {
                return try await center.responses.first(within: .seconds(20), waitingFor: "the response")
            } catch {
                throw TestSupportError("\(error)\n\(portal.logs)")
            }
        }
    }

    static func with(promptCommand: [String] = ["/bin/false"], _ body: (Fixture) async throws -> Void) async throws {
        try await withPortal { bus, server, events, portal in
            let connection = try await bus.connect()
            let center = try await makeCenter(on: connection, promptCommand: promptCommand)
            let fixture = Fixture(bus: bus, portal: portal, server: server, serverEvents: events, center: center)
            let result = await outcome { try await center.running { try await body(fixture) } }
            await connection.close()
            try result.get()
        }
    }

    /// Runs `body` on a private bus with the NotificationServerKit server and the real portal on it.
    ///
    /// - Parameter prepareServices: writes more D-Bus service files into the bus's service folder before it starts.
    static func withPortal(
        prepareServices: (URL) throws -> Void = { _ in },
        _ body: (PrivateBus, NotificationServer, AsyncStream<NotificationServerEvent>, RealPortal) async throws -> Void
    ) async throws {
        let services = try RealPortal.serviceFolder()
        defer { try? FileManager.default.removeItem(at: services) }
        try prepareServices(services)
        try await withPrivateBus(serviceDirectories: [services]) { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: .xfce4Notifyd)
            async let serverRunning: Void = server.run()
            let portal = try await RealPortal.start(on: bus)
            defer { portal.stop() }
            let result = await outcome { try await body(bus, server, events, portal) }
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }

    /// A center of the app "Mail" on the portal path, with the category ``message``.
    static func makeCenter(
        on connection: DBusConnection, promptCommand: [String] = ["/bin/false"],
        configure: (inout DesktopNotificationCenter.Configuration) -> Void = { _ in }
    ) async throws -> DesktopNotificationCenter {
        var configuration = DesktopNotificationCenter.Configuration(
            appName: "Mail", promptCommand: promptCommand, activatesApplications: false)
        configuration.path = .portal
        configure(&configuration)
        let center = try await DesktopNotificationCenter(connection: connection, systemConnection: nil, configuration)
        try await center.setNotificationCategories([Self.message])
        return center
    }

    static let message = NotificationCategory(
        id: "message", actions: [BridgeFixture.reply, BridgeFixture.delete, BridgeFixture.open])

    static func content() -> NotificationContent {
        var content = BridgeFixture.content()
        content.defaultActionLabel = "Show"
        return content
    }

    /// Debian 12's portal is version 1; Debian 13's advertises version 2, but its GTK backend takes version 1's keys.
    @Test("the real portal with the GTK backend delivers version 1's keys, whatever it advertises")
    func theRealPortalDeliversVersion1() async throws {
        try await Self.with { fixture in
            let info = await fixture.center.serverInformation()
            #expect(info.name == "xdg-desktop-portal")
            #expect(info.version == "1")
            #expect(
                info.specVersion == "portal 1" || info.specVersion == "portal 2, whose backend takes version 1's keys")
            #expect(!info.supportsInlineReply)
        }
    }

    @Test func aPostReachesTheServerWithItsButtons() async throws {
        try await Self.with { fixture in
            _ = try await fixture.center.post(Self.content())
            let served = try await fixture.nextServed()
            #expect(served.summary == "Ann")
            #expect(served.body == "Lunch?")
            // The GTK backend shows it, for the app id the portal gave the caller: 1.16 knows a process outside a
            // sandbox by the empty app id.
            let watcher = try await fixture.bus.connect()
            #expect(try await watcher.nameOwner(of: RealPortal.backendName) == served.sender)
            await watcher.close()
            #expect(served.appName == "" && served.desktopEntry == "")
            // Destructive first; the reply button opens the prompt (version 1 has no text field). The body click is
            // there, without the content's label: the portal has no label for the default action.
            #expect(served.actions.map(\.label) == ["", "Delete", "Reply", "Open"])
            #expect(served.actions.first?.key == "default")
        }
    }

    @Test(arguments: ["Delete", "Open"])
    func aButtonIsAResponseWithItsUserInfo(_ label: String) async throws {
        try await Self.with { fixture in
            let id = try await fixture.center.post(Self.content())
            try await fixture.click(label, on: try await fixture.nextServed())
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == label.lowercased())
            #expect(response.userInfo == BridgeFixture.content().userInfo)
            // Version 1 gives no activation token.
            #expect(response.activationToken == nil)
        }
    }

    @Test func aClickOnTheBodyIsTheDefaultAction() async throws {
        try await Self.with { fixture in
            let id = try await fixture.center.post(Self.content())
            let served = try await fixture.nextServed()
            try await fixture.server.invokeAction(id: served.id, key: "default")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.isDefaultAction)
            #expect(response.userInfo == BridgeFixture.content().userInfo)
        }
    }

    @Test func textInputOnVersion1AsksThroughThePrompt() async throws {
        let prompt = try RoutingTests.promptScript(printing: "on my way")
        try await Self.with(promptCommand: [prompt]) { fixture in
            let id = try await fixture.center.post(Self.content())
            try await fixture.click("Reply", on: try await fixture.nextServed())
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "reply")
            #expect(response.userText == "on my way")
        }
    }

    @Test func withdrawingClosesTheNotificationOnTheServer() async throws {
        try await Self.with { fixture in
            let id = try await fixture.center.post(Self.content())
            let served = try await fixture.nextServed()
            await fixture.center.withdraw(id: id)
            let closed = try await fixture.nextClosed()
            #expect(closed.id == served.id)
        }
    }

    /// The test app, built beside the test bundle.
    static func testApp() throws -> URL {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let app = folder.appendingPathComponent("portal-test-app")
        guard FileManager.default.isExecutableFile(atPath: app.path) else {
            throw TestSupportError("portal-test-app is not built in \(folder.path); run 'swift build --build-tests'")
        }
        return app
    }

    @Test func anAppRunAsIfInAFlatpakPostsThroughThePortalAndGetsItsResponse() async throws {
        let app = try Self.testApp()
        try await Self.with { fixture in
            var environment = fixture.bus.environment
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = fixture.bus.address
            // What Flatpak sets in every sandbox; the app's code says nothing about sandboxes.
            environment["container"] = "flatpak"
            let (output, writeEnd) = try LineReader.pipe()
            let child: ChildProcess
            do {
                defer { close(writeEnd) }
                child = try ChildProcess.spawn([app.path], environment: environment, standardOutput: writeEnd)
            }
            defer { child.stop() }
            let posted = try output.nextLine(within: .seconds(30), waitingFor: "the app to post").split(separator: " ")
            #expect(posted.count == 3 && posted.first == "posted")
            #expect(posted.last == "xdg-desktop-portal")
            let served = try await fixture.nextServed()
            #expect(served.summary == "Ann")
            try await fixture.click("Archive", on: served)
            let response = try output.nextLine(within: .seconds(30), waitingFor: "the app's response")
                .split(separator: " ", maxSplits: 3).map(String.init)
            #expect(response.count == 4)
            #expect(response.prefix(3) == ["response", String(posted.dropFirst().first ?? ""), "archive"])
            #expect(try JSONValue(parsing: response.last ?? "") == .object(["conversation": "t-42"]))
        }
    }
}

/// What `body` returned or threw.
func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
