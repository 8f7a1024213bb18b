import DBusCore
import DBusTestSupport
import EventLoopExecutor
import Foundation
import NotificationServerKit

// `make gates`: the hot paths' costs as counts, not times — instructions (callgrind) and heap allocations (a
// preloaded malloc counter) per operation — each checked against its threshold in Benchmarks/gates.tsv. A figure
// past its threshold fails the run, with the path, the figure and the threshold. Counts do not move with the load of
// the machine, so a gate that fails means the code does more work.

struct GateOptions {
    var daemon = ""
    var cli = ""
    var shim = ""
    /// A library preloaded before the counter into the counted processes: the planted regression of
    /// `make gates-selftest`, which the gates must fail.
    var preload: String?
    var gates = "Benchmarks/gates.tsv"
    var operations = 40
    /// How many times each run of a path counted per operation is made; the least count is kept.
    var repeats = 2
    var only: Set<String> = []
    var propose = false
    /// Where each run's counts and logs are kept (emptied first): what to read when a gate fails.
    var work = ".build/gates"

    static let usage = """
        usage: bench-gates --daemon PATH --cli PATH --shim PATH [--gates PATH] [--operations N] [--repeats R] \
        [--only PATH,PATH] [--propose] [--work FOLDER] [--preload PATH]
               bench-gates library post|dispatch COUNT   (the counted app, started by the gates)
        """

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            if argument == "--propose" {
                propose = true
                continue
            }
            guard let value = iterator.next() else { throw GateError("\(argument) needs a value\n\(Self.usage)") }
            switch argument {
            case "--daemon": daemon = value
            case "--cli": cli = value
            case "--shim": shim = value
            case "--preload": preload = value
            case "--gates": gates = value
            case "--work": work = value
            case "--operations":
                guard let count = Int(value), count > 0 else { throw GateError("--operations needs a number") }
                operations = count
            case "--repeats":
                guard let count = Int(value), count > 0 else { throw GateError("--repeats needs a number") }
                repeats = count
            case "--only": only = Set(value.split(separator: ",").map(String.init))
            default: throw GateError("unknown option \(argument)\n\(Self.usage)")
            }
        }
        for (name, path) in [("--daemon", daemon), ("--cli", cli), ("--shim", shim), ("--preload", preload ?? shim)]
        where !FileManager.default.isReadableFile(atPath: path) {
            throw GateError("\(name) \(path.isEmpty ? "is needed" : "\(path) does not exist")\n\(Self.usage)")
        }
    }
}

func measure(_ options: GateOptions, paths: [String]) async throws -> [String: Counts] {
    guard let valgrind = ExecutableLookup.find("valgrind") else {
        throw GateError("valgrind is not installed: run 'make test' (it installs it) or 'apt-get install valgrind'")
    }
    return try await withPrivateBus { bus in
        let folder = URL(fileURLWithPath: options.work).standardizedFileURL
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let counter = Counter(
            valgrind: valgrind.path, shim: options.shim, preload: options.preload, folder: folder)
        let serverConnection = try await bus.connect()
        let server = NotificationServer()
        let events = server.events()
        // Nothing expires by itself: under the counter, more than a server's default timeout may pass.
        try await server.start(
            on: serverConnection, profile: NotificationServerProfile.fullFeatured.withoutDefaultExpiry)
        async let serverRunning: Void = server.run()
        // The user's click, as soon as a notification of a clicking path shows.
        let clicking = Task {
            for await case .notified(let notification) in events {
                switch notification.appName {
                case DaemonGates.respondAppName: try? await server.invokeAction(id: notification.id, key: "default")
                case LibraryClient.dispatchAppName:
                    try? await server.invokeAction(id: notification.id, key: LibraryClient.actionID)
                default: break
                }
            }
        }
        defer { clicking.cancel() }
        let client = try await bus.connect()
        let daemon = DaemonGates(
            bus: bus, client: client, counter: counter, daemon: options.daemon, cli: options.cli, folder: folder,
            operations: options.operations, repeats: options.repeats)
        var measured: [String: Counts] = [:]
        for path in paths where measured[path] == nil {
            switch path {
            case "daemon-post": measured[path] = try await daemon.post()
            case "daemon-respond": measured[path] = try await daemon.respond()
            case "daemon-list", "daemon-start":
                let (listing, start) = try await daemon.listingAndStart()
                measured["daemon-list"] = listing
                measured["daemon-start"] = start
            case "cli-send": measured[path] = try await daemon.send()
            case "library-post", "library-dispatch":
                measured[path] = try await libraryPath(
                    path, dispatch: path == "library-dispatch", bus: bus, counter: counter, folder: folder,
                    operations: options.operations, repeats: options.repeats)
            default: throw GateError("\(options.gates) names a path the gates do not know: \(path)")
            }
        }
        await serverConnection.close()
        await serverRunning
        await client.close()
        return measured
    }
}

/// Runs this program as the counted app (``LibraryClient``) with N and 2N posts (see
/// ``costOfOne(_:operations:repeats:_:)``): the cost of one.
func libraryPath(
    _ path: String, dispatch: Bool, bus: PrivateBus, counter: Counter, folder: URL, operations: Int, repeats: Int
) async throws -> Counts {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    return try await costOfOne(path, operations: operations, repeats: repeats) { count, tag in
        let log = folder.appendingPathComponent("library.log").path
        let child = try counter.spawn(
            [executable, "library", dispatch ? "dispatch" : "post", String(count)], tag: tag,
            environment: bus.environment, log: log)
        guard let status = await child.wait(within: .seconds(600)) else {
            child.stop()
            throw GateError("the counted app (\(tag)) did not end within 600 s; its log: \(log)")
        }
        guard status == 0 else { throw GateError("the counted app (\(tag)) ended with \(status); its log: \(log)") }
        return try counter.counts(of: tag)
    }
}

/// Prints each gate with its figure, and returns the lines of those that failed.
func judge(_ table: GateTable, _ measured: [String: Counts], options: GateOptions) -> [String] {
    var failures: [String] = []
    print("")
    print("Count gates (\(options.gates)): per operation, from \(options.operations) and \(2 * options.operations)")
    for gate in table.gates {
        guard let counts = measured[gate.path] else { continue }
        let figure = gate.metric.value(of: counts)
        let passed = gate.failure(figure) == nil
        let change = gate.measured > 0 ? (figure / gate.measured - 1) * 100 : 0
        print(
            "  \(passed ? "ok    " : "FAILED") \(gate.path) \(gate.metric.rawValue): \(formatted(figure)) "
                + "(threshold \(formatted(gate.threshold)); \(String(format: "%+.1f%%", change)) on the "
                + "\(formatted(gate.measured)) recorded) — \(pathNames[gate.path] ?? gate.path)")
        if let failure = gate.failure(figure) { failures.append(failure) }
    }
    if options.propose {
        print(
            "\nProposed lines for \(options.gates) (threshold from the figure measured now; take the highest of a "
                + "few runs, and keep the note's range):")
        for gate in table.gates {
            guard let counts = measured[gate.path] else { continue }
            let figure = gate.metric.value(of: counts)
            let threshold = proposedThreshold(
                gate.metric, measured: figure, perOperation: perOperationPaths.contains(gate.path))
            print(
                "\(gate.path)\t\(gate.metric.rawValue)\t\(String(format: "%.0f", threshold))\t"
                    + "\(String(format: "%.1f", figure))\t\(gate.note)")
        }
    }
    return failures
}

/// The gates: measures, judges, and returns the exit status (1: a gate failed; 2: the gates could not measure).
func runGates(_ arguments: [String]) async -> Int32 {
    do {
        let options = try GateOptions(arguments)
        let table = try GateTable(contentsOf: options.gates)
        let paths = table.paths.filter { options.only.isEmpty || options.only.contains($0) }
        let started = ContinuousClock.now
        let measured = try await measure(options, paths: paths)
        let failures = judge(table, measured, options: options)
        print("\nmeasured in \(ContinuousClock.now - started)")
        guard failures.isEmpty else {
            for failure in failures { print("gate failed: \(failure)") }
            print(
                "A gate fails when the code does more work than its threshold allows: find what added it; if the "
                    + "cost is wanted, raise the threshold in \(options.gates) in a commit of its own that says why "
                    + "(docs/performance.md).")
            return 1
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("bench-gates: \(error)\n".utf8))
        return 2
    }
}

// Both the gates and the counted app run on EventLoopExecutor, as the daemon and the command line do: valgrind 3.19
// cannot run a program on libdispatch's thread pool (it stops with an internal error as the pool starts threads).
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "library", let count = Int(arguments[3]) {
    EventLoopExecutor.runMain {
        do {
            try await LibraryClient.run(count: count, dispatch: arguments[2] == "dispatch")
            return 0
        } catch {
            FileHandle.standardError.write(Data("bench-gates library: \(error)\n".utf8))
            return 2
        }
    }
}
EventLoopExecutor.runMain { await runGates(arguments) }
