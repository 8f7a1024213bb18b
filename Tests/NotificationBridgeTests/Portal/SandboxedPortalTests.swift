import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// The center of a Flatpak app in a real sandbox (``FlatpakSandbox``: `bwrap`, `/.flatpak-info`, `xdg-dbus-proxy` with
/// the portals allowed, as `flatpak run` sets them up) against Debian's real xdg-desktop-portal 1.16, which knows the
/// app by its `/.flatpak-info`: the notification carries the app id, and the user's action reaches the app.
@Suite(
    "The real portal, from a real sandbox", .serialized,
    .enabled(if: RealPortal.isInstalled, "xdg-desktop-portal and xdg-desktop-portal-gtk are not installed"),
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct SandboxedPortalTests {
    static let appID = "org.example.Mail"

    static func with(
        _ body: (RealPortalTests.Fixture, FlatpakSandbox) async throws -> Void
    ) async throws {
        let services = try RealPortal.serviceFolder()
        defer { try? FileManager.default.removeItem(at: services) }
        try await withPrivateBus(serviceDirectories: [services]) { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: .xfce4Notifyd)
            let portal = try await RealPortal.start(on: bus)
            defer { portal.stop() }
            // What `flatpak run` allows every app: the portals.
            let sandbox = try await FlatpakSandbox.start(
                appID: appID, on: bus, talk: ["org.freedesktop.portal.*"], own: ["\(appID).*", appID])
            defer { sandbox.stop() }
            let connection = try await sandbox.connect()
            var configuration = DesktopNotificationCenter.Configuration(
                appName: "Mail", promptCommand: ["/bin/false"], activatesApplications: false)
            configuration.path = .portal
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil, configuration)
            try await center.setNotificationCategories([RealPortalTests.message])
            let fixture = RealPortalTests.Fixture(
                bus: bus, portal: portal, server: server, serverEvents: events, center: center)
            let result = await outcome { try await body(fixture, sandbox) }
            await center.stop()
            await server.stop()
            await connection.close()
            await serverConnection.close()
            try result.get()
        }
    }

    @Test("the portal names the sandboxed app on its notification, by the app id in its /.flatpak-info")
    func theNotificationCarriesTheAppID() async throws {
        try await Self.with { fixture, _ in
            _ = try await fixture.center.post(RealPortalTests.content())
            let served = try await fixture.nextServed()
            #expect(served.summary == "Ann")
            #expect(served.desktopEntry == Self.appID, "\(served.hints)\n\(fixture.portal.logs)")
        }
    }

    @Test("a click on a button reaches the running app, with its user info")
    func anActionReachesTheRunningApp() async throws {
        try await Self.with { fixture, _ in
            let id = try await fixture.center.post(RealPortalTests.content())
            try await fixture.click("Open", on: try await fixture.nextServed())
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "open")
            #expect(response.userInfo == BridgeFixture.content().userInfo)
        }
    }
}

/// What `body` returned or threw.
private func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
