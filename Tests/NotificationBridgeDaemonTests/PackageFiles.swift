import DBusTestSupport
import Foundation

/// Files of the package the tests check or use: the `dbus/` files and the built `notification-bridged`.
enum PackageFiles {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let interfaceXML = root.appendingPathComponent("dbus/io.github.NotificationBridge1.xml")
    static let activationService = root.appendingPathComponent("dbus/io.github.NotificationBridge.service")
    static let systemdUnit = root.appendingPathComponent("packaging/notification-bridged.service")

    /// The built daemon: next to the test bundle (SwiftPM builds every product before testing), else where
    /// `swift build --show-bin-path` says.
    static func daemonExecutable() async throws -> URL {
        let bundleFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [bundleFolder] + [try? await binPath()].compactMap { $0 }
        for folder in candidates {
            let executable = folder.appendingPathComponent("notification-bridged")
            if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
        }
        throw TestSupportError(
            "notification-bridged is not built (looked in \(candidates.map(\.path))); run "
                + "'swift build' first")
    }

    private static func binPath() async throws -> URL {
        let result = try await ProcessRunner.run(
            ["/bin/sh", "-c", "cd \"$0\" && swift build --show-bin-path", root.path], timeout: .seconds(60))
        return URL(fileURLWithPath: result.output)
    }
}
