import DBusCore
import DBusTestSupport
import Testing

@testable import NotificationBridge

/// A sandboxed app's `LocalNotificationClient` that cannot reach the daemon says what its manifest must grant.
@Suite struct DaemonFromSandboxTests {
    static func failure(sandbox: Sandbox?) async throws -> DaemonUnreachableError? {
        try await withPrivateBus { bus in
            // No daemon on this bus, as for a Flatpak without the permission: the name has no owner.
            let connection = try await bus.connect()
            defer { Task { await connection.close() } }
            do {
                _ = try await LocalNotificationClient(
                    connection: connection, appName: "Kettle", foreground: false, sandbox: sandbox)
                return nil
            } catch let error as DaemonUnreachableError {
                return error
            }
        }
    }

    @Test func inAFlatpakTheErrorNamesThePermission() async throws {
        let error = try #require(try await Self.failure(sandbox: .flatpak))
        #expect(error.sandbox == .flatpak)
        #expect(error.description.contains("--talk-name=io.github.NotificationBridge"))
        #expect(error.description.contains("finish-args"))
    }

    @Test func outsideASandboxTheErrorSaysToInstallTheDaemon() async throws {
        let error = try #require(try await Self.failure(sandbox: nil))
        #expect(error.description.contains("install the notification-bridge package"))
        #expect(!error.description.contains("--talk-name"))
    }
}
