import DBusTestSupport
import Foundation
import NotificationBridgeVersion
import Testing

/// `--version` of the three programs: one version, printed the same way, as `NAME VERSION` with status 0.
@Suite("every program prints the one version the same way")
struct VersionTests {
    /// The commands a user types, and the built program that answers for each.
    static let programs: [(command: String, path: @Sendable () throws -> String)] = [
        ("notification-bridged", { try BuiltProgram.path("notification-bridged") }),
        ("notification-bridge", { try BuiltProgram.path("notification-bridge") }),
        ("notification-terminal-server", { try BuiltProgram.TerminalServerForm.ownProgram.path() }),
        ("notification-terminal-server", { try BuiltProgram.TerminalServerForm.installed.path() }),
    ]

    @Test("--version prints the program's name and the version, and exits 0", arguments: 0..<programs.count)
    func versionLine(_ index: Int) async throws {
        let (command, path) = Self.programs[index]
        let result = try await ProcessRunner.run([try path(), "--version"], timeout: .seconds(20))
        #expect(result.status == 0, "\(command) --version: \(result.standardError)")
        #expect(result.standardOutput == "\(command) \(ProgramVersion.number)\n", "\(command) --version")
        #expect(result.standardError.isEmpty, "\(command) --version wrote to standard error: \(result.standardError)")
    }

    @Test("the version is the one packaging/changelog gives the Debian package")
    func changelogAgrees() throws {
        let changelog = try String(contentsOfFile: repositoryFile("packaging/changelog"), encoding: .utf8)
        let firstLine = changelog.prefix { $0 != "\n" }
        #expect(
            firstLine.hasPrefix("notification-bridge (\(ProgramVersion.number)-"),
            "packaging/changelog starts with '\(firstLine)'; its upstream version must be \(ProgramVersion.number)")
    }
}
