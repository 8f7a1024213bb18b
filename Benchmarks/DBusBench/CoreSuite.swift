import DBusCore
import DBusTestSupport
import Foundation

/// DBusCore against raw libdbus, with the C baseline's own server: method-call round trip, and signals received and
/// emitted. Rounds alternate between the two sides.
struct CoreSuite {
    let options: Options
    let bus: PrivateBus
    let baseline: Baseline

    static let benchName = "io.github.NotificationBridge.Bench"
    static let benchPath: DBusObjectPath = "/io/github/NotificationBridge/Bench"
    static let benchInterface = "io.github.NotificationBridge.Bench1"
    private static let group = "DBusCore (C echo server)"

    func run() async throws -> [ResultRow] {
        let (server, _) = try baseline.start(["serve"], waitingFor: "the C server to be ready")
        defer { server.stop(grace: .seconds(1)) }
        let connection = try await bus.connect()
        let asyncFloor = try RawConnectionThread(address: bus.address)
        defer { asyncFloor.stop() }

        var rawCall: [Latency] = [], asyncFloorCall: [Latency] = [], swiftCall: [Latency] = []
        var executorCall: [Latency] = []
        var rawReceive: [Double] = [], swiftReceive: [Double] = [], swiftEmit: [Double] = []
        for round in 1...options.rounds {
            log("DBusCore: round \(round) of \(options.rounds)")
            rawCall.append(try await baseline.latency(["call", String(options.calls)]))
            asyncFloorCall.append(try await floorRoundTrips(asyncFloor, count: options.calls))
            swiftCall.append(try await roundTrips(connection, count: options.calls))
            executorCall.append(
                try await withTaskExecutorPreference(connection.executor) {
                    try await roundTrips(connection, count: options.calls)
                })
            rawReceive.append(number(try await baseline.run(["listen", String(options.signals)]), "per_second"))
            swiftReceive.append(try await receiveRate(connection, count: options.signals))
            swiftEmit.append(try await emitRate(connection, count: options.signals))
        }
        await connection.close()

        let floor = Latency.medianOfRounds(rawCall)
        let asyncCall = Latency.medianOfRounds(asyncFloorCall)
        let call = Latency.medianOfRounds(swiftCall)
        let onExecutor = Latency.medianOfRounds(executorCall)
        let rawRate = medianOf(rawReceive)
        let receive = medianOf(swiftReceive)
        let emit = medianOf(swiftEmit)
        return [
            ResultRow(Self.group, "raw libdbus Echo call (floor)", latency: floor, floor: floor),
            ResultRow(
                Self.group, "the floor of an async call", latency: asyncCall, floor: floor,
                note:
                    "(the same call made on a thread that owns the connection, awaited by a task: the hand-offs alone)"),
            ResultRow(
                Self.group, "DBusCore call", latency: call, floor: floor,
                target: Thresholds.dbusCoreCall.judge(call.median, floor: floor.median)),
            ResultRow(
                Self.group, "DBusCore call on the connection's executor", latency: onExecutor, floor: floor,
                target: Thresholds.dbusCoreCall.judge(onExecutor.median, floor: floor.median)),
            ResultRow(Self.group, "raw libdbus → raw: signals", unit: .perSecond, median: rawRate, ratio: 1),
            ResultRow(
                Self.group, "raw → DBusCore: signals received", unit: .perSecond, median: receive,
                ratio: receive / rawRate, target: Thresholds.dbusCoreSignals.judge(receive, floor: rawRate)),
            ResultRow(
                Self.group, "DBusCore → raw: signals emitted", unit: .perSecond, median: emit, ratio: emit / rawRate,
                target: Thresholds.dbusCoreSignals.judge(emit, floor: rawRate)),
        ]
    }

    private func roundTrips(_ connection: DBusConnection, count: Int) async throws -> Latency {
        let payload = String(repeating: "x", count: 16)
        return try await Latency.timing(count, warmUp: options.warmUp) {
            let reply = try await connection.call(
                destination: Self.benchName, path: Self.benchPath, interface: Self.benchInterface, method: "Echo",
                with: payload)
            guard try reply.decode(String.self) == payload else { throw BenchError("Echo returned another string") }
        }
    }

    /// The C client's calls, made by a task through ``RawConnectionThread``.
    private func floorRoundTrips(_ floor: RawConnectionThread, count: Int) async throws -> Latency {
        let payload = String(repeating: "x", count: 16)
        return try await Latency.timing(count, warmUp: options.warmUp) {
            let echoed = try await floor.run { try RawConnectionThread.echo($0, payload) }
            guard echoed == payload else { throw BenchError("Echo returned another string") }
        }
    }

    /// Subscribes with DBusCore, asks the C server to emit `count` signals, and returns signals per second.
    private func receiveRate(_ connection: DBusConnection, count: Int) async throws -> Double {
        let ticks = try await connection.signals(
            matching: DBusMatchRule(interface: Self.benchInterface, member: "Tick"))
        let start = monotonicNanoseconds()
        _ = try await connection.call(
            destination: Self.benchName, path: Self.benchPath, interface: Self.benchInterface, method: "Emit",
            with: UInt32(count))
        var expected: UInt32 = 0
        for await signal in ticks {
            guard case .uint32(let n)? = signal.arguments.first, n == expected else {
                throw BenchError("signal \(expected) arrived out of order")
            }
            expected += 1
            if expected == count { break }
        }
        return Double(count) / (Double(monotonicNanoseconds() - start) / 1e9)
    }

    /// Emits `count` signals with DBusCore to a C receiver and returns the receiver's signals per second.
    private func emitRate(_ connection: DBusConnection, count: Int) async throws -> Double {
        let (receiver, reader) = try baseline.start(["count", String(count)], waitingFor: "the C receiver to be ready")
        defer { receiver.stop(grace: .seconds(1)) }
        for n in 0..<UInt32(count) {
            try connection.emit(
                path: Self.benchPath, interface: Self.benchInterface, member: "Tick", arguments: [.uint32(n)])
        }
        let line = try reader.nextLine(within: .seconds(60), waitingFor: "the C receiver's result")
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchError("unexpected receiver output: \(line)")
        }
        return number(object, "per_second")
    }
}
