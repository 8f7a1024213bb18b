import DBusCore
import DBusTestSupport
import Foundation
import Synchronization

/// Stand-ins for the desktop services the Desktop tests talk to, and small file helpers.
enum DesktopFixtures {
    /// A fresh temporary folder; remove it with `FileManager.default.removeItem`.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nb-desktop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes an executable `/bin/sh` script and returns its path, close-on-exec (see ``ExecutableScript``).
    @discardableResult
    static func writeScript(_ body: String, named name: String, in directory: URL) throws -> String {
        try ExecutableScript.write("#!/bin/sh\n" + body + "\n", to: directory.appendingPathComponent(name).path)
    }

    /// A shell line that prints the shell's own `SigBlk` line (its blocked signals) using builtins only: a child
    /// reading the shell's status could catch the shell inside its own spawn, with everything blocked for a moment.
    static let printBlockedSignals =
        #"while read -r line; do case $line in SigBlk*) echo "$line";; esac; done < /proc/$$/status"#

    /// Waits until `path` exists and is not empty, then returns its text; bounded.
    static func contents(of path: String, within limit: Duration = .seconds(10)) async throws -> String {
        try await withTimeout(limit, waitingFor: "\(path) to be written") {
            while true {
                if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") {
                    return text
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// A logind stand-in on a bus used as the system bus: a Manager that resolves the session and a Session object
    /// with `LockedHint`, changed through `PropertiesChanged` like the real one.
    final class Logind: Sendable {
        enum Resolution: Sendable {
            /// `GetSession("auto")` answers.
            case auto
            /// Only `GetSessionByPID` answers (older logind, or a process inside the session).
            case byPID
        }

        static let sessionPath: DBusObjectPath = "/org/freedesktop/login1/session/_32"
        let connection: DBusConnection
        private let locked: Mutex<Bool>
        /// The pids `GetSessionByPID` was asked about.
        let askedPIDs = Mutex<[UInt32]>([])

        private init(connection: DBusConnection, locked: Bool) {
            self.connection = connection
            self.locked = Mutex(locked)
        }

        static func start(on bus: PrivateBus, locked: Bool, resolution: Resolution = .auto) async throws -> Logind {
            let logind = Logind(connection: try await bus.connect(), locked: locked)
            let session = DBusInterface(
                "org.freedesktop.login1.Session",
                properties: [.readOnly("LockedHint", "b") { [logind] in .boolean(logind.locked.withLock { $0 }) }])
            try await logind.connection.export([session], at: sessionPath)
            var methods = [
                DBusMethod(
                    "GetSessionByPID", inputs: [.init("pid", "u")], outputs: [.init("session", "o")]
                ) { [logind] call in
                    if case .uint32(let pid)? = call.arguments.first { logind.askedPIDs.withLock { $0.append(pid) } }
                    return [.objectPath(sessionPath)]
                }
            ]
            if resolution == .auto {
                methods.append(
                    DBusMethod(
                        "GetSession", inputs: [.init("session_id", "s")], outputs: [.init("session", "o")]
                    ) { call in
                        guard call.arguments.first == .string("auto") else {
                            throw DBusFailure(name: "org.freedesktop.login1.NoSuchSession", message: "no such session")
                        }
                        return [.objectPath(sessionPath)]
                    })
            }
            try await logind.connection.export(
                [DBusInterface("org.freedesktop.login1.Manager", methods: methods)], at: "/org/freedesktop/login1")
            _ = try await logind.connection.requestName("org.freedesktop.login1")
            return logind
        }

        /// Sets `LockedHint` and announces it, as logind does when the screen locker calls `SetLockedHint`.
        func setLocked(_ value: Bool) {
            locked.withLock { $0 = value }
            connection.emitPropertiesChanged(
                path: Self.sessionPath, interface: "org.freedesktop.login1.Session", changed: ["LockedHint"])
        }
    }

    /// A screen saver on the session bus: `GetActive` and `ActiveChanged`.
    final class ScreenSaver: Sendable {
        let connection: DBusConnection
        let path: DBusObjectPath
        private let active: Mutex<Bool>

        private init(connection: DBusConnection, path: DBusObjectPath, active: Bool) {
            self.connection = connection
            self.path = path
            self.active = Mutex(active)
        }

        static func start(
            on bus: PrivateBus, active: Bool, path: DBusObjectPath = "/org/freedesktop/ScreenSaver"
        ) async throws -> ScreenSaver {
            let saver = ScreenSaver(connection: try await bus.connect(), path: path, active: active)
            let interface = DBusInterface(
                "org.freedesktop.ScreenSaver",
                methods: [
                    DBusMethod("GetActive", outputs: [.init("active", "b")]) { [saver] _ in
                        [.boolean(saver.active.withLock { $0 })]
                    }
                ],
                signals: [DBusSignalDescription("ActiveChanged", arguments: [.init("active", "b")])])
            try await saver.connection.export([interface], at: path)
            _ = try await saver.connection.requestName("org.freedesktop.ScreenSaver")
            return saver
        }

        /// Locks or unlocks, announcing it with `ActiveChanged`.
        func setActive(_ value: Bool) throws {
            active.withLock { $0 = value }
            try connection.emit(
                path: path, interface: "org.freedesktop.ScreenSaver", member: "ActiveChanged",
                arguments: [.boolean(value)])
        }
    }
}
