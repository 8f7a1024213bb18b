import DBusCore
import DBusTestSupport
import Foundation

@testable import NotificationBridge

/// Debian's xdg-desktop-portal with xdg-desktop-portal-gtk as its notification backend, on a private bus, under
/// Xvfb (the GTK backend needs a display): the backend forwards notifications to whatever owns
/// `org.freedesktop.Notifications` on that bus.
///
/// The portal is found through `XDG_DESKTOP_PORTAL_DIR`, which holds one `.portal` file naming the GTK backend for
/// the notification interface alone, and `XDG_CURRENT_DESKTOP`, which that file's `UseIn` matches.
final class RealPortal: Sendable {
    static let frontend = "/usr/libexec/xdg-desktop-portal"
    static let backend = "/usr/libexec/xdg-desktop-portal-gtk"
    static let permissionStore = "/usr/libexec/xdg-permission-store"
    static let backendName = "org.freedesktop.impl.portal.desktop.gtk"
    static let desktopName = "nbtest"

    /// Whether the portal, its GTK backend and Xvfb are installed (`make test` installs them).
    static var isInstalled: Bool {
        [frontend, backend].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && ExecutableLookup.find("Xvfb") != nil
    }

    /// Where the portal's and the backend's logs go.
    let logFolder: URL
    private let processes: [ChildProcess]

    private init(logFolder: URL, processes: [ChildProcess]) {
        self.logFolder = logFolder
        self.processes = processes
    }

    /// A folder of D-Bus service files for the private bus: the permission store, which the portal asks about.
    static func serviceFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("nb-portal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        [D-BUS Service]
        Name=org.freedesktop.impl.portal.PermissionStore
        Exec=\(permissionStore)

        """.write(to: folder.appendingPathComponent("permission-store.service"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Starts Xvfb, the GTK backend and the portal on `bus`, and waits until both have their names.
    static func start(on bus: PrivateBus) async throws -> RealPortal {
        let folder = bus.directory.appendingPathComponent("portal")
        let portals = folder.appendingPathComponent("portals")
        try FileManager.default.createDirectory(at: portals, withIntermediateDirectories: true)
        try """
        [portal]
        DBusName=\(backendName)
        Interfaces=org.freedesktop.impl.portal.Notification;
        UseIn=\(desktopName)

        """.write(to: portals.appendingPathComponent("gtk.portal"), atomically: true, encoding: .utf8)

        var processes: [ChildProcess] = []
        func stopAll() { for process in processes.reversed() { process.stop() } }
        do {
            let (output, writeEnd) = try LineReader.pipe()
            do {
                defer { close(writeEnd) }
                processes.append(
                    try ChildProcess.spawn(
                        ["Xvfb", "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                        standardOutput: writeEnd, standardError: open("/dev/null", O_WRONLY)))
            }
            let display = try output.nextLine(within: .seconds(10), waitingFor: "Xvfb to print its display")
            var environment = bus.environment
            environment["DISPLAY"] = ":" + display
            environment["XDG_CURRENT_DESKTOP"] = desktopName
            environment["XDG_DESKTOP_PORTAL_DIR"] = portals.path
            environment["GTK_USE_PORTAL"] = "0"
            environment["NO_AT_BRIDGE"] = "1"
            processes.append(
                try ChildProcess.spawn(
                    [backend, "--replace"], environment: environment,
                    standardOutput: open("/dev/null", O_WRONLY), standardError: log(folder, "backend")))
            try await waitForName(backendName, on: bus, what: "xdg-desktop-portal-gtk")
            processes.append(
                try ChildProcess.spawn(
                    [frontend, "--replace", "--verbose"], environment: environment,
                    standardOutput: open("/dev/null", O_WRONLY), standardError: log(folder, "portal")))
            try await waitForName(PortalWire.busName, on: bus, what: "xdg-desktop-portal")
        } catch {
            stopAll()
            throw error
        }
        return RealPortal(logFolder: folder, processes: processes)
    }

    private static func log(_ folder: URL, _ name: String) -> Int32 {
        open(folder.appendingPathComponent("\(name).log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    private static func waitForName(_ name: String, on bus: PrivateBus, what: String) async throws {
        let watcher = try await bus.connect()
        defer { Task { await watcher.close() } }
        let owners = try await watcher.nameOwnerChanges(of: name)
        guard try await watcher.nameOwner(of: name) == nil else { return }
        try await withTimeout(.seconds(30), waitingFor: "\(what) to take \(name)") {
            for await owner in owners where owner != nil { return }
            throw TestSupportError("the bus ended while waiting for \(what)")
        }
    }

    /// What the portal and its backend logged, for a failure message.
    var logs: String {
        ["portal", "backend"].map { name in
            let text = (try? String(contentsOf: logFolder.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
            return "--- \(name) ---\n" + text.split(separator: "\n").suffix(20).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Stops the portal, its backend and Xvfb.
    func stop() {
        for process in processes.reversed() { process.stop() }
    }
}
