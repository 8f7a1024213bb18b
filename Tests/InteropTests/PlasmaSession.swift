import DBusTestSupport
import Foundation

/// What plasmashell needs on the bus before it starts: kactivitymanagerd (without it the shell aborts its load: "The
/// activity manager daemon (kactivitymanagerd) is not running") and the global-shortcuts daemon (kglobalaccel5 in
/// Plasma 5, kglobalacceld in Plasma 6: ``DebianRelease/globalShortcuts``). They keep running while a case restarts
/// plasmashell, as on a Plasma desktop.
///
/// plasmashell itself is the server's command: it owns `org.freedesktop.Notifications` once its notifications applet
/// has loaded, and its popups, with their buttons and reply field, are in the accessibility tree.
final class PlasmaSession: Sendable {
    private let processes: [ChildProcess]

    static let activityManager = "/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd"

    /// Whether this is the server that needs these helpers.
    static func isPlasma(_ server: RealServer) -> Bool { server.package == "plasma-workspace" }

    /// Why Plasma cannot run here, or `nil` when it can.
    static var missing: String? {
        guard FileManager.default.isExecutableFile(atPath: activityManager) else {
            return "\(activityManager) is not installed ('make interop' installs kactivitymanagerd)"
        }
        let shortcuts = DebianRelease.current.globalShortcuts
        let found =
            shortcuts.command.contains("/")
            ? FileManager.default.isExecutableFile(atPath: shortcuts.command)
            : ExecutableLookup.find(shortcuts.command) != nil
        guard found else {
            return "\(shortcuts.command) is not installed ('make interop' installs \(shortcuts.package))"
        }
        guard FileManager.default.fileExists(atPath: "/usr/share/plasma/shells/org.kde.plasma.desktop") else {
            return "the desktop shell package is missing ('make interop' installs plasma-desktop)"
        }
        return nil
    }

    /// Starts the helpers with `environment` (the desktop's) and waits until they own their names on `bus`.
    static func start(on bus: PrivateBus, environment: [String: String]) async throws -> PlasmaSession {
        var processes: [ChildProcess] = []
        let quiet = { open("/dev/null", O_WRONLY) }
        do {
            let helpers = [
                (activityManager, "org.kde.ActivityManager"),
                (DebianRelease.current.globalShortcuts.command, "org.kde.kglobalaccel"),
            ]
            for (program, name) in helpers {
                processes.append(
                    try ChildProcess.spawn(
                        [program], environment: environment, standardOutput: quiet(), standardError: quiet()))
                let watcher = try await bus.connect()
                defer { Task { await watcher.close() } }
                try await withTimeout(.seconds(60), waitingFor: "\(program) to own \(name)") {
                    while try await watcher.nameOwner(of: name) == nil {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
        } catch {
            for process in processes { process.stop(grace: .seconds(2)) }
            throw error
        }
        return PlasmaSession(processes: processes)
    }

    private init(processes: [ChildProcess]) {
        self.processes = processes
    }

    func stop() {
        for process in processes.reversed() { process.stop(grace: .seconds(3)) }
    }
}
