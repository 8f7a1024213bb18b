import DBusCore
import DBusTestSupport
import Foundation

// Measures DBusCore against raw libdbus on a private bus, in one run on one machine:
// - method-call round trip: the C baseline client and a DBusCore client, both calling the C baseline server;
// - signal delivery: C → C, C → DBusCore (receiving) and DBusCore → C (emitting).
// Rounds alternate between the two sides so that machine noise hits both alike; each figure is the median of rounds.

struct Options {
    var baseline = "Benchmarks/bin/dbus-raw-baseline"
    var calls = 20_000
    var signals = 100_000
    var rounds = 3
    var jsonPath = "bench-results/dbus-core.json"

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw TestSupportError("\(argument) needs a value") }
            switch argument {
            case "--baseline": baseline = value
            case "--calls": calls = Int(value) ?? calls
            case "--signals": signals = Int(value) ?? signals
            case "--rounds": rounds = max(1, Int(value) ?? rounds)
            case "--json": jsonPath = value
            default:
                throw TestSupportError(
                    "unknown option \(argument); use --baseline PATH, --calls N, --signals N, --rounds N, --json PATH")
            }
        }
    }
}

let benchName = "io.github.NotificationBridge.Bench"
let benchPath: DBusObjectPath = "/io/github/NotificationBridge/Bench"
let benchInterface = "io.github.NotificationBridge.Bench1"

/// Runs the C baseline in `mode` and returns its JSON line.
func runBaseline(_ options: Options, _ bus: PrivateBus, _ arguments: [String]) async throws -> [String: Any] {
    let result = try await ProcessRunner.run(
        [options.baseline] + arguments, environment: bus.environment, timeout: .seconds(120))
    guard result.status == 0,
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    else {
        throw TestSupportError("baseline \(arguments) failed (\(result.status)): \(result.standardError)")
    }
    return object
}

func number(_ object: [String: Any], _ key: String) -> Double {
    (object[key] as? NSNumber)?.doubleValue ?? .nan
}

struct Latency {
    var median: Double
    var p99: Double
}

func latency(ofSortedNanoseconds samples: [Double]) -> Latency {
    let count = samples.count
    let median = count % 2 == 0 ? (samples[count / 2 - 1] + samples[count / 2]) / 2 : samples[count / 2]
    let rank = max(0, Int((0.99 * Double(count)).rounded(.up)) - 1)
    return Latency(median: median, p99: samples[rank])
}

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func swiftRoundTrips(_ connection: DBusConnection, count: Int) async throws -> Latency {
    let payload = String(repeating: "x", count: 16)
    let clock = ContinuousClock()
    for _ in 0..<200 {
        _ = try await connection.call(
            destination: benchName, path: benchPath, interface: benchInterface, method: "Echo", with: payload)
    }
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = clock.now
        let reply = try await connection.call(
            destination: benchName, path: benchPath, interface: benchInterface, method: "Echo", with: payload)
        guard try reply.decode(String.self) == payload else { throw TestSupportError("Echo returned another string") }
        samples.append(nanoseconds(clock.now - start))
    }
    return latency(ofSortedNanoseconds: samples.sorted())
}

/// Subscribes with DBusCore, asks the C server to emit `count` signals, and returns signals per second.
func swiftReceiveRate(_ connection: DBusConnection, count: Int) async throws -> Double {
    let ticks = try await connection.signals(matching: DBusMatchRule(interface: benchInterface, member: "Tick"))
    let clock = ContinuousClock()
    let start = clock.now
    _ = try await connection.call(
        destination: benchName, path: benchPath, interface: benchInterface, method: "Emit", with: UInt32(count))
    var expected: UInt32 = 0
    for await signal in ticks {
        guard case .uint32(let n)? = signal.arguments.first, n == expected else {
            throw TestSupportError("signal \(expected) arrived out of order")
        }
        expected += 1
        if expected == count { break }
    }
    return Double(count) / (nanoseconds(clock.now - start) / 1e9)
}

/// Emits `count` signals with DBusCore to a C receiver and returns the receiver's signals per second.
func swiftEmitRate(_ options: Options, _ bus: PrivateBus, _ connection: DBusConnection, count: Int) async throws
    -> Double
{
    let (reader, writeEnd) = try LineReader.pipe()
    let receiver: ChildProcess
    do {
        defer { close(writeEnd) }
        receiver = try ChildProcess.spawn(
            [options.baseline, "count", String(count)], environment: bus.environment, standardOutput: writeEnd)
    }
    defer { receiver.stop(grace: .seconds(1)) }
    _ = try reader.nextLine(within: .seconds(10), waitingFor: "the C receiver to be ready")
    for n in 0..<UInt32(count) {
        try connection.emit(path: benchPath, interface: benchInterface, member: "Tick", arguments: [.uint32(n)])
    }
    let line = try reader.nextLine(within: .seconds(60), waitingFor: "the C receiver's result")
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestSupportError("unexpected receiver output: \(line)")
    }
    return number(object, "per_second")
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 0 ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}

func run() async throws {
    let options = try Options(CommandLine.arguments)
    guard FileManager.default.isExecutableFile(atPath: options.baseline) else {
        throw TestSupportError("\(options.baseline) is missing: run 'make bench', which builds it")
    }
    try await withPrivateBus { bus in
        let (serverOutput, writeEnd) = try LineReader.pipe()
        let server: ChildProcess
        do {
            defer { close(writeEnd) }
            server = try ChildProcess.spawn(
                [options.baseline, "serve"], environment: bus.environment, standardOutput: writeEnd)
        }
        defer { server.stop(grace: .seconds(1)) }
        _ = try serverOutput.nextLine(within: .seconds(10), waitingFor: "the C server to be ready")
        let connection = try await bus.connect()

        var rawCall: [Latency] = []
        var swiftCall: [Latency] = []
        var executorCall: [Latency] = []
        var rawReceive: [Double] = []
        var swiftReceive: [Double] = []
        var swiftEmit: [Double] = []
        for round in 1...options.rounds {
            print("round \(round) of \(options.rounds)…")
            let raw = try await runBaseline(options, bus, ["call", String(options.calls)])
            rawCall.append(Latency(median: number(raw, "median_ns"), p99: number(raw, "p99_ns")))
            swiftCall.append(try await swiftRoundTrips(connection, count: options.calls))
            executorCall.append(try await withTaskExecutorPreference(connection.executor) {
                try await swiftRoundTrips(connection, count: options.calls)
            })
            rawReceive.append(number(try await runBaseline(options, bus, ["listen", String(options.signals)]), "per_second"))
            swiftReceive.append(try await swiftReceiveRate(connection, count: options.signals))
            swiftEmit.append(try await swiftEmitRate(options, bus, connection, count: options.signals))
        }
        await connection.close()

        let rawMedian = median(rawCall.map(\.median))
        let swiftMedian = median(swiftCall.map(\.median))
        let executorMedian = median(executorCall.map(\.median))
        let executorP99 = median(executorCall.map(\.p99))
        let executorRatio = executorMedian / rawMedian
        let rawP99 = median(rawCall.map(\.p99))
        let swiftP99 = median(swiftCall.map(\.p99))
        let rawRate = median(rawReceive)
        let receiveRate = median(swiftReceive)
        let emitRate = median(swiftEmit)
        let callRatio = swiftMedian / rawMedian
        let receiveRatio = receiveRate / rawRate
        let emitRatio = emitRate / rawRate

        func micro(_ ns: Double) -> String { String(format: "%8.1f µs", ns / 1000) }
        func rate(_ perSecond: Double) -> String { String(format: "%9.0f /s", perSecond) }
        func verdict(_ ok: Bool) -> String { ok ? "met" : "MISSED" }
        print("")
        print("DBusCore against raw libdbus — \(options.rounds) rounds, median of rounds")
        print("method call round trip (\(options.calls) calls, 16-byte string)")
        print("  raw libdbus      median \(micro(rawMedian))   p99 \(micro(rawP99))")
        print("  DBusCore         median \(micro(swiftMedian))   p99 \(micro(swiftP99))")
        print(String(format: "  ratio %.3f×   target ≤ 1.15×   %@", callRatio, verdict(callRatio <= 1.15)))
        print("  DBusCore, caller on the connection's executor")
        print("                   median \(micro(executorMedian))   p99 \(micro(executorP99))")
        print(String(format: "  ratio %.3f×   target ≤ 1.15×   %@", executorRatio, verdict(executorRatio <= 1.15)))
        print("signal delivery (\(options.signals) signals)")
        print("  raw → raw        \(rate(rawRate))")
        print("  raw → DBusCore   \(rate(receiveRate))" + String(format: "   ratio %.3f×   target ≥ 0.8×   %@",
            receiveRatio, verdict(receiveRatio >= 0.8)))
        print("  DBusCore → raw   \(rate(emitRate))" + String(format: "   ratio %.3f×   target ≥ 0.8×   %@",
            emitRatio, verdict(emitRatio >= 0.8)))

        let report: [String: Any] = [
            "rounds": options.rounds,
            "call": [
                "calls": options.calls, "raw_median_ns": rawMedian, "raw_p99_ns": rawP99,
                "dbuscore_median_ns": swiftMedian, "dbuscore_p99_ns": swiftP99, "ratio": callRatio, "target": 1.15,
                "dbuscore_executor_median_ns": executorMedian, "dbuscore_executor_p99_ns": executorP99,
                "executor_ratio": executorRatio,
            ],
            "signals": [
                "signals": options.signals, "raw_per_second": rawRate, "dbuscore_receive_per_second": receiveRate,
                "dbuscore_emit_per_second": emitRate, "receive_ratio": receiveRatio, "emit_ratio": emitRatio,
                "target": 0.8,
            ],
        ]
        let url = URL(fileURLWithPath: options.jsonPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]).write(to: url)
        print("\nwritten to \(options.jsonPath)")
    }
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("dbus-bench: \(error)\n".utf8))
    exit(1)
}
