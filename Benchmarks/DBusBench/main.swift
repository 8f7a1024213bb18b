import DBusCore
import DBusTestSupport
import Foundation

// `make bench`: where the bridge stands against raw libdbus and its peers, in one run on one machine, on a private
// bus with the benchmark's own notification server. Each figure is the median over rounds that alternate between the
// things compared, so that machine noise hits all of them alike; ratios are to the raw-libdbus floor of the same run.

func run() async throws {
    let options = try Options(CommandLine.arguments)
    for (what, path) in [
        ("the C baseline", options.baseline), ("the daemon", options.daemon), ("the CLI", options.cli),
    ]
    where !FileManager.default.isExecutableFile(atPath: path) {
        throw BenchError("\(what) is missing at \(path): run 'make bench', which builds it")
    }
    // Read before the run, which may replace it.
    let last = LastTable(path: options.comparePath)
    let rows = try await withPrivateBus { bus in
        if options.onlyScale { return try await scaleRows(options, bus) }
        let baseline = Baseline(path: options.baseline, environment: bus.environment)
        var rows = try await CoreSuite(options: options, bus: bus, baseline: baseline).run()

        let serverConnection = try await bus.connect()
        let server = try await BenchNotificationServer.start(on: serverConnection)
        let client = try await bus.connect()
        let stateHome = bus.directory.appendingPathComponent("state-posting").path
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: true)
        let daemon = try await DaemonProcess.start(
            executable: options.daemon, bus: bus, client: client, stateHome: stateHome)
        do {
            rows += try await NotificationSuite(
                options: options, bus: bus, baseline: baseline, server: server
            ).run()
        } catch {
            daemon.stop()
            throw error
        }
        daemon.stop()
        rows += try await DaemonSuite(
            options: options, bus: bus, baseline: baseline, server: server, client: client
        ).run()
        rows += try await ScaleSuite(options: options, bus: bus, server: server, client: client).run()
        await client.close()
        await serverConnection.close()
        rows += try await SizeSuite(options: options).run()
        return rows
    }
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    printTable(
        rows,
        header: "NotificationBridge benchmarks\(options.quick ? " (QUICK)" : "") — \(options.rounds) rounds, "
            + "median of rounds; \(ProcessInfo.processInfo.activeProcessorCount) processors, load \(load)"
            + (last.map { "; vs last: the table of \($0.written) (\(options.comparePath))" } ?? ""),
        last: last)
    try writeJSON(rows, to: options.jsonPath, settings: options.settings)
    print("\nwritten to \(options.jsonPath)")
    if !options.markdownPath.isEmpty {
        try writeMarkdown(
            rows, to: options.markdownPath, quick: options.quick, rounds: options.rounds, load: load, last: last)
        print("written to \(options.markdownPath)")
    }
}

/// The scale rows alone (`--only scale`), with the benchmark's server of their own.
func scaleRows(_ options: Options, _ bus: PrivateBus) async throws -> [ResultRow] {
    let serverConnection = try await bus.connect()
    let server = try await BenchNotificationServer.start(on: serverConnection)
    let client = try await bus.connect()
    let rows = try await ScaleSuite(options: options, bus: bus, server: server, client: client).run()
    await client.close()
    await serverConnection.close()
    return rows
}

/// `dbus-bench --serve`: only the benchmark's notification server, on the session bus, until killed; for profiling a
/// daemon by hand on a bus of one's own.
func serve() async throws -> Never {
    let connection = try await DBusConnection.connect(to: .session)
    _ = try await BenchNotificationServer.start(on: connection)
    print("serving org.freedesktop.Notifications")
    while true { try await Task.sleep(for: .seconds(3600)) }
}

do {
    if CommandLine.arguments.dropFirst().first == "--serve" { try await serve() }
    try await run()
} catch {
    FileHandle.standardError.write(Data("dbus-bench: \(error)\n".utf8))
    exit(1)
}
