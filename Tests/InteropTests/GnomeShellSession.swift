import DBusTestSupport
import Foundation

/// GNOME Shell 43 headless (`--headless --wayland --no-x11 --virtual-monitor`) on the private session bus, with a
/// second private bus as its system bus. The shell activates its gjs notification service
/// (`org.gnome.Shell.Notifications`, from the one service file in the bus's service folder), which owns
/// `org.freedesktop.Notifications` and forwards every call to the shell.
///
/// The user's hand is the shell's own: `--unsafe-mode` opens `org.gnome.Shell.Eval`, through which the test finds the
/// banner the shell shows and emits `clicked` on its buttons, so the handlers the shell connected to them run, as
/// under a pointer.
final class GnomeShellSession: Sendable {
    let bus: PrivateBus
    let systemBus: PrivateBus
    /// The environment of programs in this session: both private buses, a private runtime folder, no display.
    let environment: [String: String]
    private let shell: ChildProcess

    /// Why GNOME Shell cannot run here, or `nil` when it can.
    static var missing: String? {
        for program in ["gnome-shell", "gjs"] where ExecutableLookup.find(program) == nil {
            return "\(program) is not installed ('make interop' installs gnome-shell and gjs)"
        }
        guard FileManager.default.fileExists(atPath: serviceFile) else {
            return "\(serviceFile) is missing ('make interop' installs gnome-shell)"
        }
        return nil
    }

    private static let serviceFile = "/usr/share/dbus-1/services/org.gnome.Shell.Notifications.service"

    /// A service folder holding only the notification service's file: the bus activates nothing else.
    static func serviceFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-interop-gnome-services")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("org.gnome.Shell.Notifications.service")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: serviceFile, toPath: copy.path)
        return folder
    }

    /// Starts the shell on `bus` with `environment` (the run's home and XDG folders) and waits until its
    /// notification service owns `org.freedesktop.Notifications`.
    static func start(on bus: PrivateBus, environment base: [String: String]) async throws -> GnomeShellSession {
        let systemBus = try PrivateBus.start()
        let runtime = bus.directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CACHE_HOME"] = bus.directory.appendingPathComponent("home/.cache").path
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"] {
            environment[name] = nil
        }
        let log = open(
            bus.directory.appendingPathComponent("gnome-shell.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(log) }
        let shell: ChildProcess
        do {
            shell = try ChildProcess.spawn(
                [
                    "gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800",
                    "--unsafe-mode",
                ],
                environment: environment, standardOutput: log, standardError: log)
        } catch {
            systemBus.stop()
            throw error
        }
        let session = GnomeShellSession(bus: bus, systemBus: systemBus, environment: environment, shell: shell)
        do {
            try await session.awaitOwner(of: "org.gnome.Shell", what: "gnome-shell to start")
            try await session.awaitOwner(of: "org.freedesktop.Notifications", what: "the shell's notification service")
            try await session.awaitNotificationServiceAnswering()
        } catch {
            session.stop()
            throw error
        }
        return session
    }

    private init(bus: PrivateBus, systemBus: PrivateBus, environment: [String: String], shell: ChildProcess) {
        self.bus = bus
        self.systemBus = systemBus
        self.environment = environment
        self.shell = shell
    }

    func stop() {
        shell.stop(grace: .seconds(5))
        systemBus.stop()
    }

    // MARK: The shell's notification service

    /// Ends the gjs notification service alone (the shell keeps running, and keeps showing its notifications) and
    /// starts it again by activation, as the bus does for the next client that asks for it. Returns once the new
    /// service owns `org.freedesktop.Notifications`.
    func restartNotificationService() async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        let previous = try await connection.nameOwner(of: "org.freedesktop.Notifications")
        let pid = try await connection.processID(of: "org.gnome.Shell.Notifications")
        kill(pid_t(pid), SIGTERM)
        try await withTimeout(.seconds(15), waitingFor: "the notification service to end") {
            while try await connection.nameOwner(of: "org.gnome.Shell.Notifications") != nil {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        _ = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "StartServiceByName", arguments: [.string("org.gnome.Shell.Notifications"), .uint32(0)],
            timeout: .seconds(30))
        try await awaitOwner(of: "org.freedesktop.Notifications", what: "the restarted service", previous: previous)
    }

    /// Waits until the notification service answers `GetServerInformation`, so that the cases start on a shell that
    /// serves. On a loaded machine the headless shell's service has been seen owning the name yet answering no call
    /// at all, for minutes, before a single notification was posted; such a service is restarted, at most twice,
    /// and a service that still does not answer fails the start with that reason.
    private func awaitNotificationServiceAnswering() async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        var attempt = 1
        while true {
            do {
                _ = try await connection.call(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "GetServerInformation", timeout: .seconds(20))
                return
            } catch {
                guard attempt < 3 else {
                    throw TestSupportError(
                        "GNOME Shell's notification service owns its name but answers no call (\(error)); see "
                            + "gnome-shell.log in the bus's folder")
                }
                print("interop: GNOME Shell's notification service does not answer (\(error)); restarting it")
                attempt += 1
                try await restartNotificationService()
            }
        }
    }

    private func awaitOwner(of name: String, what: String, previous: String? = nil) async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        try await withTimeout(.seconds(90), waitingFor: what) {
            while true {
                if let owner = try await connection.nameOwner(of: name), owner != previous { return }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    // MARK: What the shell shows

    /// The banner on the screen and what else the shell holds.
    struct Shown: Sendable, Decodable {
        /// The summary of the notification the banner shows, or `nil` when no banner is up.
        var banner: String?
        /// The title of the banner's source ("System Information" for the shell's own notices).
        var source: String?
        /// The labels of the banner's buttons, in order.
        var buttons: [String]
        /// The summaries of every notification the shell holds (banner, queue and message tray).
        var notifications: [String]
    }

    /// What the shell shows now.
    func shown() async throws -> Shown {
        let text = try await eval(
            """
            const tray = imports.ui.main.messageTray;
            const banner = tray._banner;
            if (!banner && tray._notificationState === 0 && tray._notificationQueue.length > 0)
                tray._updateState();
            JSON.stringify({
                banner: banner ? banner.notification.title : null,
                source: banner ? banner.notification.source.title : null,
                buttons: banner && banner._buttonBox ? banner._buttonBox.get_children().map(b => b.label) : [],
                notifications: tray.getSources().flatMap(s => s.notifications.map(n => n.title)),
            })
            """)
        return try JSONDecoder().decode(Shown.self, from: Data(text.utf8))
    }

    /// Waits until the banner shows the notification whose summary is `summary`, closing the shell's own notices
    /// that come first (a root session starts with "Logged in as a privileged user"), and returns what is shown.
    ///
    /// GNOME 43 shows the next queued banner only on its next change of state (on a desktop, the user's next
    /// movement); ``shown()`` makes that change when no banner is up and one is queued.
    @discardableResult
    func awaitBanner(_ summary: String, within limit: Duration = .seconds(20)) async throws -> Shown {
        let deadline = ContinuousClock.now + limit
        var last: Shown?
        while ContinuousClock.now < deadline {
            let shown = try await shown()
            last = shown
            if shown.banner == summary { return shown }
            if shown.banner != nil, shown.source == "System Information" {
                _ = try await onBanner(of: shown.banner ?? "", "banner._closeButton.emit('clicked', 1);")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSupportError(
            "GNOME Shell shows no banner '\(summary)' after \(limit); it shows \(last.map { "\($0)" } ?? "nothing")")
    }

    /// Presses the button labelled `label` on the banner of `summary`, once it is shown, as the pointer does: the
    /// banner expands (as under the pointer) and the button's `clicked` handler runs.
    func press(_ label: String, on summary: String) async throws {
        let shown = try await awaitBanner(summary)
        guard shown.buttons.contains(label) else {
            throw TestSupportError("the banner '\(summary)' has no button '\(label)': it has \(shown.buttons)")
        }
        let result = try await onBanner(
            of: summary,
            """
            tray._expandBanner(true);
            const button = banner._buttonBox.get_children().find(b => b.label === \(Self.literal(label)));
            button.emit('clicked', 1);
            """)
        guard result == "done" else { throw TestSupportError("pressing '\(label)' on '\(summary)': \(result)") }
    }

    /// Clicks the close button of the banner of `summary`, once it is shown.
    func closeBanner(_ summary: String) async throws {
        try await awaitBanner(summary)
        let result = try await onBanner(of: summary, "banner._closeButton.emit('clicked', 1);")
        guard result == "done" else { throw TestSupportError("closing '\(summary)': \(result)") }
    }

    /// Expands the banner of `summary` at once (without the animation), as the pointer on it does, so that its
    /// buttons show.
    func expand(_ summary: String) async throws {
        try await awaitBanner(summary)
        _ = try await onBanner(of: summary, "tray._expandBanner(true);")
    }

    /// Marks every notification the shell's notification daemon holds now, so that ``postedSinceMark()`` finds the
    /// `Notify` calls that reach it afterwards (a replacement in place included).
    func markNotifications() async throws {
        _ = try await eval(
            """
            const held = imports.ui.main.notificationDaemon._fdoNotificationDaemon._notifications;
            Object.values(held).forEach(data => { data.markedByTest = true; });
            'done'
            """)
    }

    /// The summaries of the `Notify` calls that reached the shell since ``markNotifications()`` and are still held,
    /// one per notification (a replacement in place counts once).
    func postedSinceMark() async throws -> [String] {
        let text = try await eval(
            """
            const held = imports.ui.main.notificationDaemon._fdoNotificationDaemon._notifications;
            JSON.stringify(Object.values(held).filter(data => !data.markedByTest).map(data => data.summary))
            """)
        return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// Saves what the screen shows as a PNG file at `path`, through `org.gnome.Shell.Screenshot`.
    func screenshot(to path: String) async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        let reply = try await connection.call(
            destination: "org.gnome.Shell.Screenshot", path: "/org/gnome/Shell/Screenshot",
            interface: "org.gnome.Shell.Screenshot", method: "Screenshot",
            arguments: [.boolean(false), .boolean(false), .string(path)], timeout: .seconds(20))
        guard reply.first == .boolean(true) else { throw TestSupportError("the shell took no screenshot: \(reply)") }
    }

    /// Runs `body` with `tray` and `banner` bound when the banner shows `summary`; answers "done", or why not.
    private func onBanner(of summary: String, _ body: String) async throws -> String {
        try await eval(
            """
            const tray = imports.ui.main.messageTray;
            const banner = tray._banner;
            if (!banner || banner.notification.title !== \(Self.literal(summary))) {
                'the banner shows ' + (banner ? banner.notification.title : 'nothing');
            } else {
                \(body)
                'done';
            }
            """)
    }

    /// Evaluates JavaScript in the shell and returns the value of its last statement, as text.
    private func eval(_ script: String) async throws -> String {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        let reply = try await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell", method: "Eval",
            arguments: [.string(script)], timeout: .seconds(20))
        guard reply.count == 2, case .boolean(let succeeded) = reply[0], case .string(let result) = reply[1] else {
            throw TestSupportError("Eval answered \(reply)")
        }
        guard succeeded else { throw TestSupportError("the shell's Eval failed: \(result)") }
        // Eval gives the value as JSON: a string comes quoted.
        let value = try? JSONSerialization.jsonObject(with: Data(result.utf8), options: .fragmentsAllowed)
        return value as? String ?? result
    }

    /// `text` as a JavaScript string literal.
    private static func literal(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
