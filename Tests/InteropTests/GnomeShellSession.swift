import DBusCore
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

    /// Starts the shell on `bus` with `environment` (the run's home and XDG folders) and waits until it is ready for
    /// the cases (see ``awaitReady()``).
    ///
    /// A shell that hangs while starting is stopped and started again, at most four times. GNOME Shell 43 starts
    /// `ibus-daemon` with `GLib.spawn_async` and a child-setup function written in JavaScript, which runs in the forked
    /// child before `exec`. Now and then the child blocks for good on a lock another thread of the shell held at the
    /// fork (GLib's type lock, by its stack), and the shell waits for the child with its main loop blocked: it owns
    /// its names and answers nothing. Here that happened in about one start out of ten, twice in a row once.
    static func start(on bus: PrivateBus, environment base: [String: String]) async throws -> GnomeShellSession {
        var attempt = 1
        while true {
            let session = try launch(on: bus, environment: base)
            do {
                try await session.awaitReady()
                return session
            } catch let hung as Hung where attempt < 5 {
                print("interop: \(hung); starting it again")
                // Its blocked main loop cannot handle SIGTERM.
                session.stop(grace: .zero)
                attempt += 1
            } catch {
                session.stop()
                throw error
            }
        }
    }

    /// Starts the shell itself, with a new private system bus; returns at once.
    private static func launch(on bus: PrivateBus, environment base: [String: String]) throws -> GnomeShellSession {
        let systemBus = try PrivateBus.start()
        let runtime = bus.directory.appendingPathComponent("runtime")
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CACHE_HOME"] = bus.directory.appendingPathComponent("home/.cache").path
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"] {
            environment[name] = nil
        }
        let log = open(
            bus.directory.appendingPathComponent("gnome-shell.log").path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { close(log) }
        do {
            try FileManager.default.createDirectory(
                at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let shell = try ChildProcess.spawn(
                [
                    "gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800",
                    "--unsafe-mode",
                ],
                environment: environment, standardOutput: log, standardError: log)
            return GnomeShellSession(bus: bus, systemBus: systemBus, environment: environment, shell: shell)
        } catch {
            systemBus.stop()
            throw error
        }
    }

    private init(bus: PrivateBus, systemBus: PrivateBus, environment: [String: String], shell: ChildProcess) {
        self.bus = bus
        self.systemBus = systemBus
        self.environment = environment
        self.shell = shell
    }

    /// Stops the shell and what it started that is still its child (a forked child that never reached `exec` holds
    /// the shell's bus connection open), then its system bus. The shell gets `grace` to end after SIGTERM.
    func stop(grace: Duration = .seconds(5)) {
        let children = Self.children(of: shell.pid)
        shell.stop(grace: grace)
        for child in children { kill(child, SIGKILL) }
        systemBus.stop()
    }

    // MARK: Starting

    /// Why a start was given up: the shell's main loop is blocked.
    private struct Hung: Error, CustomStringConvertible {
        var description: String
    }

    /// Waits until the shell is ready for the cases: it answers, it has finished starting, its notification service
    /// answers `GetServerInformation` (the gjs service owns the name a moment before it exports its object), and it
    /// counts its user as away from the keyboard and pointer.
    ///
    /// The last matters to banners. GNOME 43 decides when it shows a banner whether the user is at the machine (input
    /// in the last second). A banner shown to a present user expires, and until its time-out is armed (once it has
    /// slid in) any change of the tray's state hides it at once into the message tray: the shell's own notices of its
    /// start ("Logged in as a privileged user") did that to the first notification of the cases, posted within a
    /// second of the shell's start on a fast machine. A banner shown to a user who is away stays until it is dealt
    /// with, which is what the cases press and close.
    ///
    /// - Throws: ``Hung`` when a child the shell forked is still GNOME Shell, not the program it was to become, after
    ///   3 s (the deadlock ``start(on:environment:)`` describes), or when the shell answers nothing for 40 s; an
    ///   error saying what was awaited when the shell is not ready after 90 s.
    private func awaitReady() async throws {
        let start = ContinuousClock.now
        var answered = false
        var forkedSince: [pid_t: ContinuousClock.Instant] = [:]
        while true {
            let pending: String
            do {
                guard let awaited = try await awaitedForStart() else { return }
                pending = awaited
                answered = true
            } catch {
                pending = "the shell to answer (\(error))"
            }
            let now = ContinuousClock.now
            let program = Self.executable(of: shell.pid)
            let copies = Set(
                Self.children(of: shell.pid).filter { program != nil && Self.executable(of: $0) == program })
            forkedSince = forkedSince.filter { copies.contains($0.key) }
            for copy in copies where forkedSince[copy] == nil { forkedSince[copy] = now }
            if let copy = forkedSince.first(where: { now - $0.value >= .seconds(3) })?.key {
                throw Hung(
                    description: "GNOME Shell hangs while starting: its child \(copy), forked to start a program, is "
                        + "still GNOME Shell after 3 s, and the shell waits for it")
            }
            if !answered, now - start >= .seconds(40) {
                throw Hung(description: "GNOME Shell answers no call 40 s after it started: waiting for \(pending)")
            }
            if now - start >= .seconds(90) {
                throw TestSupportError(
                    "GNOME Shell is not ready 90 s after it started: waiting for \(pending); " + (await diagnosis()))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What the start waits for now, or `nil` when the shell is ready; throws when the shell itself does not answer.
    private func awaitedForStart() async throws -> String? {
        struct Start: Decodable {
            var starting: Bool
            var idle: Int
        }
        let state = try await eval(
            """
            const main = \(Self.main);
            JSON.stringify({
                starting: main.layoutManager._startingUp,
                idle: main.messageTray.idleMonitor.get_idletime(),
            })
            """, timeout: .seconds(2))
        let start = try JSONDecoder().decode(Start.self, from: Data(state.utf8))
        if start.starting { return "the shell to finish starting" }
        do {
            let connection = try await bus.connect()
            defer { Task { await connection.close() } }
            _ = try await connection.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "GetServerInformation", timeout: .seconds(2))
        } catch {
            return "the notification service to answer (\(error))"
        }
        // The shell's threshold is 1 s of no input; a margin keeps the check clear of it.
        if start.idle <= 1_500 { return "the shell to count its user as away" }
        return nil
    }

    /// The processes whose parent is `pid`, from `/proc`.
    private static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (name) ": the state, then the parent's pid.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// The program `pid` runs, from `/proc`; `nil` when it has ended.
    private static func executable(of pid: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }

    /// What answers on the shell's side, and the end of its log: for a start that failed.
    private func diagnosis() async -> String {
        func probe(
            _ destination: String, _ path: DBusObjectPath, _ interface: String, _ method: String
        ) async -> String {
            do {
                let connection = try await bus.connect()
                defer { Task { await connection.close() } }
                let reply = try await connection.call(
                    destination: destination, path: path, interface: interface, method: method, timeout: .seconds(5))
                return "\(reply)"
            } catch {
                return "\(error)"
            }
        }
        let direct = await probe(
            "org.gnome.Shell", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
            "GetServerInformation")
        let log =
            (try? String(contentsOf: bus.directory.appendingPathComponent("gnome-shell.log"), encoding: .utf8))
            ?? ""
        let tail = log.split(separator: "\n").suffix(25).joined(separator: "\n")
        return "the shell's own notification daemon answers \(direct); the end of gnome-shell.log:\n\(tail)"
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
        try await withTimeout(.seconds(90), waitingFor: "the restarted service") {
            while true {
                if let owner = try await connection.nameOwner(of: "org.freedesktop.Notifications"), owner != previous {
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    // MARK: What the shell shows

    /// The banner on the screen and what else the shell holds.
    struct Shown: Sendable, Decodable {
        /// The summary of the notification the banner shows, or `nil` when no banner is up.
        var banner: String?
        /// The title of the banner's source (for the shell's own notices "System Information" in GNOME Shell 43,
        /// "System" in 48).
        var source: String?
        /// The labels of the banner's buttons, in order.
        var buttons: [String]
        /// The summaries of every notification the shell holds (banner, queue and message tray).
        var notifications: [String]
        /// The summaries of the notifications waiting for a banner, in order.
        var queue: [String]
        /// The tray's banner state: 0 hidden, 1 showing, 2 shown, 3 hiding.
        var state: Int
    }

    /// What the shell shows now.
    func shown() async throws -> Shown {
        let text = try await eval(
            """
            const tray = \(Self.main).messageTray;
            // A banner whose notification has ended (on its way out) shows nothing.
            const banner = tray._banner && tray._banner.notification ? tray._banner : null;
            if (!tray._banner && tray._notificationState === 0 && tray._notificationQueue.length > 0)
                tray._updateState();
            JSON.stringify({
                banner: banner ? banner.notification.title : null,
                source: banner ? banner.notification.source.title : null,
                buttons: banner && banner._buttonBox ? banner._buttonBox.get_children().map(b => b.label) : [],
                notifications: tray.getSources().flatMap(s => s.notifications.map(n => n.title)),
                queue: tray._notificationQueue.map(n => n.title),
                state: tray._notificationState,
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
            if shown.banner != nil, ["System Information", "System"].contains(shown.source) {
                _ = try await onBanner(of: shown.banner ?? "", "\(Self.closeButton).emit('clicked', 1);")
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
        let result = try await onBanner(of: summary, "\(Self.closeButton).emit('clicked', 1);")
        guard result == "done" else { throw TestSupportError("closing '\(summary)': \(result)") }
    }

    /// Expands the banner of `summary` at once (without the animation), as the pointer on it does, so that its
    /// buttons show.
    func expand(_ summary: String) async throws {
        try await awaitBanner(summary)
        _ = try await onBanner(of: summary, "tray._expandBanner(true);")
    }

    /// Marks every notification the shell's notification daemon holds now, so that ``postedSinceMark()`` finds the
    /// `Notify` calls that reach it afterwards (on GNOME Shell 43 a replacement in place included; 48 keeps the
    /// replaced notification's object, which stays marked).
    func markNotifications() async throws {
        _ = try await eval(
            """
            \(Self.heldNotifications)
            held.forEach(data => { data.markedByTest = true; });
            'done'
            """)
    }

    /// The summaries of the `Notify` calls that reached the shell since ``markNotifications()`` and are still held,
    /// one per notification (a replacement in place counts once).
    func postedSinceMark() async throws -> [String] {
        let text = try await eval(
            """
            \(Self.heldNotifications)
            JSON.stringify(held.filter(data => !data.markedByTest).map(data => data.summary ?? data.title))
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
            const tray = \(Self.main).messageTray;
            const banner = tray._banner && tray._banner.notification ? tray._banner : null;
            if (!banner || banner.notification.title !== \(Self.literal(summary))) {
                'the banner shows ' + (banner ? banner.notification.title : 'nothing');
            } else {
                \(body)
                'done';
            }
            """)
    }

    /// Evaluates JavaScript in the shell and returns the value of its last statement, as text.
    private func eval(_ script: String, timeout: Duration = .seconds(20)) async throws -> String {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        let reply = try await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell", method: "Eval",
            arguments: [.string(script)], timeout: timeout)
        guard reply.count == 2, case .boolean(let succeeded) = reply[0], case .string(let result) = reply[1] else {
            throw TestSupportError("Eval answered \(reply)")
        }
        guard succeeded else { throw TestSupportError("the shell's Eval failed: \(result)") }
        // Eval gives the value as JSON: a string comes quoted.
        let value = try? JSONSerialization.jsonObject(with: Data(result.utf8), options: .fragmentsAllowed)
        return value as? String ?? result
    }

    // MARK: The shell's insides, as GNOME Shell 43 and 48 name them

    /// The shell's `main` module. `Eval` runs its code in the scope of `shellDBus.js`, which imports it as `Main`
    /// (43 through `imports.ui.main`; 45 made the shell's files modules, which `imports.ui` no longer reaches).
    private static let main = "(typeof Main === 'undefined' ? imports.ui.main : Main)"

    /// The close button of `banner`: its own in 43, its header's in 48.
    private static let closeButton = "(banner._closeButton ?? banner._header.closeButton)"

    /// Binds `held` to what the shell's notification daemon holds per notification: 43 keeps the data of each
    /// `Notify` call (with its `summary`), 48 a `Map` of the notifications themselves (with their `title`).
    private static let heldNotifications = """
        const daemon = \(main).notificationDaemon._fdoNotificationDaemon;
        const held = daemon._notifications instanceof Map
            ? [...daemon._notifications.values()] : Object.values(daemon._notifications);
        """

    /// `text` as a JavaScript string literal.
    private static func literal(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
