import DBusTestSupport
import Foundation
import Testing

/// The built daemon and CLI, as a user runs them, against each real server Debian ships, on a private bus whose
/// service folder is empty (nothing is started behind the test's back; GNOME Shell's holds its notification service
/// alone). The user's clicks are the pointer's, on buttons found in the accessibility tree; dunst is driven through
/// its context menu, GNOME Shell through its banner's own buttons, and under headless sway, mako through `makoctl`
/// and SwayNotificationCenter's buttons through the accessibility tree.
///
/// Run by `make interop` (`NB_INTEROP=1`). Each server gets one line in the summary: passed, failed with its first
/// failing expectation, or skipped with the reason.
@Suite(
    "Real notification servers", .serialized,
    .enabled(if: Interop.isEnabled, "NB_INTEROP=1 runs it: 'make interop'"))
struct InteropTests {
    @Test(arguments: RealServer.all)
    func server(_ server: RealServer) async throws {
        guard Interop.isSelected(server) else { return }
        if let missing = server.missing {
            Interop.report(InteropVerdict.skipped(reason: missing).line(server: server.name, version: nil))
            return
        }
        let version = await server.version()
        let expectations = InteropExpectations(notRunHere: DebianRelease.current.notRun[server.name] ?? [:])
        do {
            let services =
                server.pointer == .gnomeShell
                ? try GnomeShellSession.serviceFolder() : try Interop.emptyServiceFolder()
            try await withPrivateBus(serviceDirectories: [services]) { bus in
                let run = try await InteropRun.start(server, on: bus, expectations: expectations)
                defer { run.stop() }
                await run.everyCase()
            }
        } catch let cannotStart as DesktopCannotStart {
            let verdict = InteropVerdict.skipped(reason: cannotStart.reason)
            Interop.report(verdict.line(server: server.name, version: version))
            return
        } catch {
            expectations.fail("\(error)")
        }
        Interop.report(expectations.verdict.line(server: server.name, version: version))
    }
}

enum Interop {
    static var isEnabled: Bool { ProcessInfo.processInfo.environment["NB_INTEROP"] == "1" }

    /// Whether `server` is among those `NB_INTEROP_SERVERS` names (comma-separated), or that is unset: a run of a few.
    static func isSelected(_ server: RealServer) -> Bool {
        guard let names = ProcessInfo.processInfo.environment["NB_INTEROP_SERVERS"], !names.isEmpty else { return true }
        return names.split(separator: ",").contains { $0 == server.name }
    }

    /// Where screenshots go: `NB_INTEROP_ARTIFACTS`, else `.build/interop` in the package.
    static var artifacts: URL {
        let path =
            ProcessInfo.processInfo.environment["NB_INTEROP_ARTIFACTS"]
            ?? packageRoot.appendingPathComponent(".build/interop").path
        let folder = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A service folder with nothing in it, so that the bus activates no server of its own accord.
    static func emptyServiceFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-interop-services")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// One line of the summary `make interop` prints.
    static func report(_ line: String) {
        let file = artifacts.appendingPathComponent("summary.txt")
        let handle =
            (try? FileHandle(forWritingTo: file))
            ?? {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
                return try? FileHandle(forWritingTo: file)
            }()
        handle?.seekToEndOfFile()
        handle?.write(Data((line + "\n").utf8))
        try? handle?.close()
        print("interop: " + line)
    }

    /// A built program: next to the test bundle, where SwiftPM builds every product before testing.
    static func built(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(name) is not built next to the tests (\(folder.path)); run 'make interop'")
        }
        return path
    }
}
