import DBusCore
import Foundation
import Synchronization

/// A real dunst notification server under Xvfb, on a private bus, for end-to-end tests.
///
/// dunst shows actions only in its context menu, which it hands to the program named by its `dmenu` setting. Here
/// that program is a small script that picks the menu line holding the text given to ``invoke(actionLabel:)``, and
/// the menu is opened through dunst's own D-Bus command, `org.dunstproject.cmd0.ContextMenuCall`.
public final class Dunst: Sendable {
    private let display: ChildProcess
    /// dunst's process, replaced by ``restart()``.
    private let server: Mutex<ChildProcess>
    private let environment: [String: String]
    private let config: URL
    private let directory: URL
    private let bus: PrivateBus
    /// The X display dunst draws on, for example `:3`.
    public let displayName: String

    /// Whether dunst and Xvfb are installed.
    public static var isInstalled: Bool {
        ExecutableLookup.find("dunst") != nil && ExecutableLookup.find("Xvfb") != nil
    }

    /// Starts Xvfb and dunst on `bus`, and waits until dunst owns `org.freedesktop.Notifications`.
    ///
    /// - Throws: ``TestSupportError`` when a program is missing or does not come up within 10 seconds.
    public static func start(on bus: PrivateBus) async throws -> Dunst {
        let directory = bus.directory.appendingPathComponent("dunst")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let picker = directory.appendingPathComponent("pick")
        try ExecutableScript.write(
            """
            #!/bin/sh
            # dunst's dmenu: choose the menu line holding the text in the file 'want', if any.
            cat > "\(directory.path)/menu"
            want=$(cat "\(directory.path)/want" 2>/dev/null) || exit 1
            grep -F -- "$want" "\(directory.path)/menu" | head -n 1
            """, to: picker.path)
        let config = directory.appendingPathComponent("dunstrc")
        try """
        [global]
            dmenu = \(picker.path)
            follow = none
        """.write(to: config, atomically: true, encoding: .utf8)

        let (displayOutput, displayWriteEnd) = try LineReader.pipe()
        let display: ChildProcess
        do {
            defer { close(displayWriteEnd) }
            display = try ChildProcess.spawn(
                ["Xvfb", "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                standardOutput: displayWriteEnd, standardError: open("/dev/null", O_WRONLY))
        }
        let number: String
        do {
            number = try displayOutput.nextLine(within: .seconds(10), waitingFor: "Xvfb to print its display")
        } catch {
            display.stop()
            throw error
        }
        var environment = bus.environment
        environment["DISPLAY"] = ":" + number
        let server: ChildProcess
        do {
            server = try launch(config: config, environment: environment, directory: directory)
        } catch {
            display.stop()
            throw error
        }
        let dunst = Dunst(
            display: display, server: server, environment: environment, config: config, directory: directory, bus: bus,
            displayName: ":" + number)
        do {
            try await dunst.awaitName(from: server, replacing: nil)
        } catch {
            dunst.stop()
            throw error
        }
        return dunst
    }

    private static func launch(config: URL, environment: [String: String], directory: URL) throws -> ChildProcess {
        let log = open(directory.appendingPathComponent("log").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(log) }
        return try ChildProcess.spawn(
            ["dunst", "-config", config.path], environment: environment, standardOutput: log, standardError: log)
    }

    /// Waits until `server` owns `org.freedesktop.Notifications` (a connection other than `previous`).
    private func awaitName(from server: ChildProcess, replacing previous: String?) async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let owner = try await connection.nameOwner(of: "org.freedesktop.Notifications")
            if let owner, owner != previous { return }
            guard ContinuousClock.now < deadline, server.poll() == nil else {
                throw TestSupportError("dunst did not take org.freedesktop.Notifications: \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private init(
        display: ChildProcess, server: ChildProcess, environment: [String: String], config: URL, directory: URL,
        bus: PrivateBus, displayName: String
    ) {
        self.display = display
        self.server = Mutex(server)
        self.environment = environment
        self.config = config
        self.directory = directory
        self.bus = bus
        self.displayName = displayName
    }

    /// Stops dunst and starts it again on the same display, as after a crash of the user's notification server;
    /// returns once the new one owns `org.freedesktop.Notifications`.
    public func restart() async throws {
        let connection = try await bus.connect()
        let previous = try await connection.nameOwner(of: "org.freedesktop.Notifications")
        await connection.close()
        server.withLock { $0 }.stop(grace: .seconds(2))
        let new = try Self.launch(config: config, environment: environment, directory: directory)
        server.withLock { $0 = new }
        try await awaitName(from: new, replacing: previous)
    }

    /// dunst's process id (the current process, after a ``restart()``).
    public var pid: pid_t { server.withLock { $0.pid } }

    /// What dunst wrote to its output so far.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }

    /// The lines of the last context menu dunst showed: `#Label (summary) [id,key]` for each action.
    public var lastMenu: [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("menu"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Makes dunst invoke the action whose menu line contains `actionLabel` (for example `#Delete (Ann)`), the way a
    /// user picks it from dunst's context menu.
    ///
    /// dunst may not have drawn a notification that just arrived; until its menu lists the action, the menu is opened
    /// again (every 100 ms, for at most `limit`), and nothing is picked from a menu that lacks it.
    public func invoke(actionLabel: String, within limit: Duration = .seconds(10)) async throws {
        let menuFile = directory.appendingPathComponent("menu")
        try actionLabel.write(to: directory.appendingPathComponent("want"), atomically: true, encoding: .utf8)
        let deadline = ContinuousClock.now + limit
        while true {
            try? FileManager.default.removeItem(at: menuFile)
            let result = try await ProcessRunner.run(
                [
                    "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                    "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.dunstproject.cmd0.ContextMenuCall",
                ], environment: bus.environment, timeout: .seconds(10))
            guard result.status == 0 else {
                throw TestSupportError("dunst's context menu call failed: \(result.standardError)")
            }
            // The menu program runs after the call returns; give it a moment to record what it was shown.
            let shown = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < shown, !FileManager.default.fileExists(atPath: menuFile.path) {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(20))
            if lastMenu.contains(where: { $0.contains(actionLabel) }) { return }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError(
                    "dunst's menu never listed '\(actionLabel)'; it showed \(lastMenu); dunst's log ends: "
                        + String(log.suffix(2_000)))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Picks `actionLabel` from dunst's menu until `answered` says the choice came through, for at most `limit`.
    ///
    /// A menu opened the moment a notification arrives can list it and still pick nothing, as dunst is drawing it:
    /// like a user, the menu is opened again while no answer has come (checked every 50 ms for half a second).
    public func invoke(
        actionLabel: String, until answered: @escaping @Sendable () async -> Bool, within limit: Duration = .seconds(20)
    ) async throws {
        try await withTimeout(limit, waitingFor: "dunst to invoke '\(actionLabel)' from its menu") {
            while await !answered() {
                try await self.invoke(actionLabel: actionLabel)
                for _ in 0..<10 where await !answered() {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    /// Stops dunst and Xvfb.
    public func stop() {
        server.withLock { $0 }.stop(grace: .seconds(2))
        display.stop(grace: .seconds(2))
    }
}
