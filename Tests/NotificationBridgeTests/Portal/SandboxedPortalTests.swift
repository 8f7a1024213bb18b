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

    /// The script D-Bus activation of the app id runs, written once the sandbox exists (the bus reads the service
    /// file at start; the script is read when it runs).
    static func activationScript(in services: URL) -> URL { services.appendingPathComponent("start-app.sh") }

    /// One test's world: the portal and its server (``RealPortalTests/Fixture``), the app's sandbox, the connection
    /// of the app's center through it, and the bus's service folder.
    struct Run: Sendable {
        let fixture: RealPortalTests.Fixture
        let sandbox: FlatpakSandbox
        let connection: DBusConnection
        let services: URL
    }

    static func with(activatable: Bool = false, _ body: (Run) async throws -> Void) async throws {
        var services: URL?
        try await RealPortalTests.withPortal { folder in
            services = folder
            try """
            [D-BUS Service]
            Name=\(appID)
            Exec=/bin/sh \(activationScript(in: folder).path)

            """.write(to: folder.appendingPathComponent("\(appID).service"), atomically: true, encoding: .utf8)
        } _: { bus, server, events, portal in
            // What `flatpak run` allows every app: the portals, and its own name.
            let sandbox = try await FlatpakSandbox.start(
                appID: appID, on: bus, talk: ["org.freedesktop.portal.*"], own: [appID])
            defer { sandbox.stop() }
            let connection = try await sandbox.connect()
            let center = try await RealPortalTests.makeCenter(on: connection) { configuration in
                if activatable { configuration.activatableAppID = appID }
            }
            let fixture = RealPortalTests.Fixture(
                bus: bus, portal: portal, server: server, serverEvents: events, center: center)
            let run = Run(
                fixture: fixture, sandbox: sandbox, connection: connection, services: services ?? bus.directory)
            let result = await outcome { try await center.running { try await body(run) } }
            await connection.close()
            try result.get()
        }
    }

    @Test("the portal names the sandboxed app on its notification, by the app id in its /.flatpak-info")
    func theNotificationCarriesTheAppID() async throws {
        try await Self.with { run in
            let fixture = run.fixture
            _ = try await fixture.center.post(RealPortalTests.content())
            let served = try await fixture.nextServed()
            #expect(served.summary == "Ann")
            #expect(served.desktopEntry == Self.appID, "\(served.hints)\n\(fixture.portal.logs)")
        }
    }

    @Test("a click on a button reaches the running app, with its user info")
    func anActionReachesTheRunningApp() async throws {
        try await Self.with { run in
            let fixture = run.fixture
            let id = try await fixture.center.post(RealPortalTests.content())
            try await fixture.click("Open", on: try await fixture.nextServed())
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "open")
            #expect(response.userInfo == BridgeFixture.content().userInfo)
        }
    }
}

extension SandboxedPortalTests {
    @Test(
        "a click on an app that is not running starts it by D-Bus activation of its app id; that run gets the response")
    func anActionStartsTheAppThatIsNotRunning() async throws {
        let app = try RealPortalTests.testApp()
        try await Self.with(activatable: true) { run in
            let fixture = run.fixture
            let id = try await fixture.center.post(RealPortalTests.content())
            let served = try await fixture.nextServed()
            #expect(served.actions.contains { $0.label == "Open" })
            // The app quits: its name goes with its connection.
            await run.connection.close()

            let output = run.sandbox.directory.appendingPathComponent("activated.out")
            let command = run.sandbox.commandLine(
                [app.path, "--activated"], exposing: try await FlatpakSandbox.foldersNeeded(by: app))
            let pidFile = run.sandbox.directory.appendingPathComponent("activated.pid")
            try
                ("echo $$ >\(shellQuoted(pidFile.path))\nexec " + command.map(shellQuoted).joined(separator: " ")
                + " >\(shellQuoted(output.path)) 2>&1\n")
                .write(to: Self.activationScript(in: run.services), atomically: true, encoding: .utf8)

            // The sandbox the bus starts is ended here, whatever the app does: the script gives its process id.
            defer {
                let pid = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmed) }
                if let pid, pid > 0 { kill(pid, SIGKILL) }
            }
            try await fixture.click("Open", on: served)
            let line = try await withTimeout(.seconds(30), waitingFor: "the activated app to print the response") {
                while true {
                    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                    if let response = text.split(separator: "\n").first(where: { $0.hasPrefix("response ") }) {
                        return String(response)
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            #expect(words.prefix(3) == ["response", id, "open"], "\(line)\n\(fixture.portal.logs)")
            #expect(try JSONValue(parsing: words.last ?? "") == .object(BridgeFixture.content().userInfo))
        }
    }
}

/// `text` quoted for `/bin/sh`.
private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
