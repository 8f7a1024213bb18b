import DBusCore
import DBusTestSupport
import Foundation

/// What the idle daemon's resident memory is read against, in the same run: its floor (`bench-idle-floor`, the Swift
/// runtime and the daemon's C libraries with nothing of the bridge, built with the same flags) and, where they are
/// installed, the notification servers users compare the daemon with: dunst (under Xvfb) and mako (under headless
/// sway). Each runs on a private bus of its own, so that the servers do not meet the benchmark's, and is measured once
/// it owns its name and has settled for as long as the daemon did.
struct IdleAnchors {
    let options: Options
    let group: String

    /// How long a program is left without work before its memory is read: past the second after which the daemon
    /// lets go of its code pages.
    static let settle = Duration.seconds(2)

    /// One row per anchor that could run; an anchor that cannot is said in the log, and left out.
    func run() async -> [ResultRow] {
        var rows: [ResultRow] = []
        func add(_ name: String, _ measure: () async throws -> ResultRow) async {
            do {
                rows.append(try await measure())
            } catch {
                log("idle anchor \(name): not measured: \(error)")
            }
        }
        if !options.floor.isEmpty {
            await add("floor") { try await floor() }
        }
        if Dunst.isInstalled {
            await add("dunst") { try await dunst() }
        } else {
            log("idle anchor dunst: not measured: dunst or Xvfb is not installed")
        }
        if HeadlessSway.canRun, ExecutableLookup.find("mako") != nil {
            await add("mako") { try await mako() }
        } else {
            log("idle anchor mako: not measured: mako, sway or setpriv is not installed, or this is not root")
        }
        return rows
    }

    private func floor() async throws -> ResultRow {
        try await withPrivateBus { bus in
            let name = "io.github.NotificationBridge.IdleFloor"
            let child = try ChildProcess.spawn([options.floor, name, bus.directory.path], environment: bus.environment)
            defer { child.stop(grace: .seconds(2)) }
            try await awaitOwner(of: name, on: bus, from: child, what: "bench-idle-floor")
            return try await settled("the floor (Swift runtime, libdbus, SQLite, GIO)", pid: child.pid)
        }
    }

    private func dunst() async throws -> ResultRow {
        try await withPrivateBus { bus in
            let dunst = try await Dunst.start(on: bus)
            defer { dunst.stop() }
            return try await settled("dunst (an anchor)", pid: dunst.pid)
        }
    }

    private func mako() async throws -> ResultRow {
        try await withPrivateBus { bus in
            let home = bus.directory.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let sway = try await HeadlessSway.start(on: bus, home: home)
            defer { sway.stop() }
            var environment = sway.environment
            environment["HOME"] = home.path
            let log = open(bus.directory.appendingPathComponent("mako.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(log) }
            let mako = try ChildProcess.spawn(
                HeadlessSway.asUser(["mako"]), environment: environment, standardOutput: log, standardError: log)
            defer { mako.stop(grace: .seconds(2)) }
            try await awaitOwner(of: "org.freedesktop.Notifications", on: bus, from: mako, what: "mako")
            return try await settled("mako (an anchor)", pid: mako.pid)
        }
    }

    /// The row of `pid`, read after it settled.
    private func settled(_ name: String, pid: pid_t) async throws -> ResultRow {
        try await Task.sleep(for: Self.settle)
        let memory = ProcessMemory(pid: pid)
        return ResultRow(group, "idle: " + name, unit: .bytes, median: try memory.residentBytes(), note: memory.note)
    }

    /// Returns once `name` has an owner on `bus`; fails if `child` exits first or 15 seconds pass.
    private func awaitOwner(of name: String, on bus: PrivateBus, from child: ChildProcess, what: String) async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        try await withTimeout(.seconds(15), waitingFor: "\(what) to own \(name)") {
            while try await connection.nameOwner(of: name) == nil {
                if let status = child.poll() { throw BenchError("\(what) exited with status \(status)") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
