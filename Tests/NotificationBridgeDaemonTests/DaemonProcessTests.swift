import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// The `notification-bridged` program itself: D-Bus activation, SIGTERM, the bus going away.
@Suite("The notification-bridged process")
struct DaemonProcessTests {
    /// Runs `body` on a private bus with a scripted notification server.
    private static func withServer<T: Sendable>(
        serviceDirectories: [URL] = [], _ body: (PrivateBus, DBusConnection) async throws -> T
    ) async throws -> T {
        try await withPrivateBus(serviceDirectories: serviceDirectories) { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            try await server.start(on: serverConnection, profile: .fullFeatured)
            async let serverRunning: Void = server.run()
            let client = try await bus.connect()
            do {
                let result = try await body(bus, client)
                await serverConnection.close()
                await serverRunning
                await client.close()
                await serverConnection.close()
                return result
            } catch {
                await serverConnection.close()
                await serverRunning
                await client.close()
                await serverConnection.close()
                throw error
            }
        }
    }

    /// A file for the daemon's log, outside the bus's folder (which goes when the bus stops).
    private static func logFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("nb-daemon-\(UUID().uuidString).log")
    }

    /// Starts the built daemon on `bus`; its standard error goes to `log`. Returns once it owns its name.
    private static func start(on bus: PrivateBus, client: DBusConnection, log: URL) async throws -> ChildProcess {
        let executable = try await PackageFiles.daemonExecutable()
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        let output = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(output) }
        // The daemon keeps its state under XDG_STATE_HOME: a folder of the bus's, not the user's.
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = bus.directory.appendingPathComponent("state").path
        let child = try ChildProcess.spawn(
            [executable.path], environment: environment, standardOutput: output, standardError: output)
        do {
            try await withTimeout(waitingFor: "notification-bridged to own its name") {
                for await owner in owners where owner != nil { return }
            }
        } catch {
            child.stop()
            throw TestSupportError("\(error); its log: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        return child
    }

    /// Runs `body` with the built daemon started on a private bus with a scripted server, and stops it after.
    private static func withDaemon(
        _ body: (PrivateBus, DBusConnection, ChildProcess, URL) async throws -> Void
    ) async throws {
        try await withServer { bus, client in
            let log = logFile()
            defer { try? FileManager.default.removeItem(at: log) }
            let daemon = try await start(on: bus, client: client, log: log)
            defer { daemon.stop() }
            try await body(bus, client, daemon, log)
        }
    }

    @Test("gdbus call on the name starts the daemon through its D-Bus activation file")
    func activation() async throws {
        let executable = try await PackageFiles.daemonExecutable()
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("nb-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let committed = try String(contentsOf: PackageFiles.activationService, encoding: .utf8)
        try committed.replacingOccurrences(
            of: "Exec=/usr/bin/notification-bridged",
            with: "Exec=/usr/bin/env XDG_STATE_HOME=\(services.path)/state \(executable.path) --log-level error"
        ).write(
            to: services.appendingPathComponent("io.github.NotificationBridge.service"), atomically: true,
            encoding: .utf8)

        try await Self.withServer(serviceDirectories: [services]) { bus, client in
            #expect(try await client.nameOwner(of: BridgeAPI.busName) == nil)
            let result = try await ProcessRunner.run(
                [
                    "gdbus", "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                    BridgeAPI.objectPath.rawValue, "--method", "\(BridgeAPI.interfaceName).GetServerInformation",
                ], environment: bus.environment, timeout: .seconds(20))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output.contains("'server-name': <'NotificationServerKit'>"))

            let pid = try await client.processID(of: BridgeAPI.busName)
            let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
            kill(pid_t(pid), SIGTERM)
            try await withTimeout(waitingFor: "the activated daemon to stop") {
                for await owner in owners where owner == nil { return }
            }
        }
    }

    @Test("SIGTERM: waiting calls get ShuttingDown, the name is released, the exit status is 0")
    func gracefulShutdown() async throws {
        try await Self.withServer { bus, client in
            // The waiting call is made by a child task, so it may reach the bus after the SIGTERM; then the daemon
            // never saw it (ServiceUnknown), and the case is played again with a new daemon.
            for attempt in 1...5 {
                let log = Self.logFile()
                defer { try? FileManager.default.removeItem(at: log) }
                let daemon = try await Self.start(on: bus, client: client, log: log)
                defer { daemon.stop() }
                let id = try await client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.post.name, arguments: [.vardict([PostKeys.title.name: .string("Waiting")])]
                ).decode(String.self)
                async let waited = outcome {
                    try await client.call(
                        destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                        method: BridgeMethod.waitForResponse.name, arguments: [.string(id)])
                }
                _ = try await client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.listCategories.name)
                let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)

                daemon.signal(SIGTERM)
                guard case .failure(let error) = await waited else {
                    Issue.record("WaitForResponse returned instead of failing")
                    return
                }
                try await withTimeout(waitingFor: "the name to be released") {
                    for await owner in owners where owner == nil { return }
                }
                let status = await daemon.wait(within: .seconds(10))
                if error.dbusName == DBusFailure.Name.serviceUnknown && attempt < 5 { continue }
                #expect(error.dbusName == "io.github.NotificationBridge1.Error.ShuttingDown", "\(error)")
                #expect(status == 0, "log: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
                return
            }
        }
    }

    @Test("the daemon is one connection on its bus: watching the settings file connects no GVfs client, so no gvfsd")
    func oneConnection() async throws {
        // The session's services, as a desktop session has them: where gvfs is installed, its daemon would start.
        let sessionServices = URL(fileURLWithPath: "/usr/share/dbus-1/services")
        try await Self.withServer(serviceDirectories: [sessionServices]) { bus, client in
            let log = Self.logFile()
            defer { try? FileManager.default.removeItem(at: log) }
            let daemon = try await Self.start(on: bus, client: client, log: log)
            defer { daemon.stop() }
            // A Post reads the user's settings: by its answer the settings file is watched.
            _ = try await client.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.post.name, arguments: [.vardict([PostKeys.title.name: .string("Watched")])]
            ).decode(String.self)
            let names = try await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "ListNames"
            ).decode([String].self)
            var daemonConnections: [String] = []
            for name in names where name.hasPrefix(":") {
                // A connection may leave between the listing and the question.
                if (try? await client.processID(of: name)) == UInt32(daemon.pid) { daemonConnections.append(name) }
            }
            #expect(try await !client.nameHasOwner("org.gtk.vfs.Daemon"), "gvfsd was started")
            let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(daemonConnections.count == 1, "the daemon's connections: \(daemonConnections); log: \(logText)")
        }
    }

    @Test("a second after its last work the daemon lets go of its code, and maps back in what a later call runs")
    func codeReleasedWhenQuiet() async throws {
        try await Self.withDaemon { _, client, daemon, _ in
            _ = try await BridgeProxy(connection: client).listCategories()
            // Start-up maps in most of the program's code (a debug build: 70% of it); once let go, what stays is
            // what has run since.
            try await Self.expectCodeReleased(by: daemon, after: "start-up")
            let id = try await client.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.post.name,
                arguments: [.vardict([PostKeys.title.name: .string("After the let-go")])]
            ).decode(String.self)
            #expect(!id.isEmpty)
            try await Self.expectCodeReleased(by: daemon, after: "a Post")
        }
    }

    /// Waits up to 10 s for at most a quarter of the code of the process `child` to be resident.
    private static func expectCodeReleased(by child: ChildProcess, after work: String) async throws {
        var code = try ProgramCode(of: child.pid)
        let deadline = ContinuousClock.now + .seconds(10)
        while code.resident > code.size / 4, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            code = try ProgramCode(of: child.pid)
        }
        #expect(
            code.resident <= code.size / 4,
            "\(code.resident / 1024) KiB of the daemon's \(code.size / 1024) KiB of code are resident 10 s after \(work)"
        )
    }

    @Test("when the bus goes away the daemon exits non-zero and says why")
    func busGoesAway() async throws {
        try await Self.withDaemon { bus, client, daemon, log in
            // Answered once the daemon has opened its state (which lives in the bus's folder, removed with it).
            _ = try await BridgeProxy(connection: client).listCategories()
            bus.stop()
            let status = await daemon.wait(within: .seconds(10))
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(status == 1, "log: \(text)")
            #expect(text.contains("notification-bridged: the connection to the session bus closed"), "log: \(text)")
        }
    }
}

/// How much of a process's program file is mapped without write access (its code and read-only data), and how much
/// of that is resident, from `/proc/PID/smaps`.
private struct ProgramCode {
    var size = 0
    var resident = 0

    init(of pid: pid_t) throws {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        let smaps = try String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8)
        var inProgramCode = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5 {
                // A mapping's first line: range, permissions, offset, device, inode, path.
                inProgramCode =
                    fields.count >= 6 && fields[5...].joined(separator: " ") == program
                    && !fields[1].contains("w")
            } else if inProgramCode, fields.count == 3, fields[2] == "kB" {
                let bytes = (Int(fields[1]) ?? 0) * 1024
                if fields[0] == "Size:" { size += bytes }
                if fields[0] == "Rss:" { resident += bytes }
            }
        }
    }
}
