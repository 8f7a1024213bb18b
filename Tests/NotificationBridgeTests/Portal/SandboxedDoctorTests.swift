import DBusCore
import DBusTestSupport
import Foundation
import Testing

@testable import NotificationBridge

/// `notification-bridge doctor` inside a real sandbox, against the real xdg-desktop-portal: it reports what reaches
/// the desktop as the portal read from the host does (on Debian 13, version 2 advertised and version 1's keys
/// delivered), and fails, saying why, when the desktop would drop the typed text an app asks for.
@Suite(
    "doctor in a sandbox", .serialized,
    .enabled(if: RealPortal.isInstalled, "xdg-desktop-portal and xdg-desktop-portal-gtk are not installed"),
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct SandboxedDoctorTests {
    /// The command line, built beside the test bundle.
    static func cli() throws -> URL {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = folder.appendingPathComponent("notification-bridge")
        guard FileManager.default.isExecutableFile(atPath: path.path) else {
            throw TestSupportError("notification-bridge is not built next to the tests (\(folder.path))")
        }
        return path
    }

    @Test("what the portal delivers, told apart from what it advertises; no reply field and no prompt is a problem")
    func portalDelivery() async throws {
        try await RealPortalTests.withPortal { bus, _, _, portal in
            let host = try await bus.connect()
            let truth = try await PortalInfo.read(on: host, timeout: .seconds(10))
            await host.close()
            let sandbox = try await FlatpakSandbox.start(
                appID: "org.example.Mail", on: bus, talk: ["org.freedesktop.portal.*"])
            defer { sandbox.stop() }
            let cli = try Self.cli()
            // No zenity, kdialog or yad on the sandbox's PATH, as in the GNOME and KDE runtimes.
            let result = try await sandbox.run(
                [cli.path, "doctor", "--json"], environment: ["PATH": "/nonexistent"],
                exposing: try await FlatpakSandbox.foldersNeeded(by: cli))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
                "\(result.output) \(result.standardError)\n\(portal.logs)")
            let seen = try #require(report["portal"] as? [String: Any], "\(report)")
            #expect(seen["sandboxed"] as? Bool == true)
            #expect(seen["available"] as? Bool == true, "\(seen)")
            #expect((seen["version"] as? Double).map { UInt32($0) } == truth.version, "\(seen)")
            #expect(
                (seen["delivered-version"] as? Double).map { UInt32($0) } == truth.deliveredVersion,
                "the sandbox judged the delivered version otherwise than the host, whose backend says \(truth)")
            #expect(seen["backend-version"] is NSNull, "the sandbox's bus shows no backend: \(seen)")
            let notDelivered = seen["not-delivered"] as? [String] ?? []
            #expect(notDelivered == truth.notDelivered, "\(seen)")
            #expect(notDelivered.contains("a reply field in the notification"), "\(seen)")
            if truth.deliveredVersion < 2 { #expect(notDelivered.contains("sounds"), "\(seen)") }
            let problems = report["problems"] as? [String] ?? []
            #expect(
                problems.contains { $0.contains("typed replies cannot be asked for in this sandbox") },
                "\(problems)")
            #expect(result.status == 1, "a problem found")

            let plain = try await sandbox.run(
                [cli.path, "doctor"], environment: ["PATH": "/nonexistent"],
                exposing: try await FlatpakSandbox.foldersNeeded(by: cli))
            #expect(plain.output.contains("portal: sandboxed; notification portal version \(truth.version)"))
            #expect(plain.output.contains("not delivered to this desktop:"), "\(plain.output)")
            if truth.deliveredVersion < truth.version {
                #expect(
                    plain.output.contains("delivering version \(truth.deliveredVersion)'s keys"), "\(plain.output)")
            }
            #expect(!plain.output.contains("no problems found"))
        }
    }
}
