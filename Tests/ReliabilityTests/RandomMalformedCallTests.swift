import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Synchronization
import Testing

extension Reliability {
    /// 10,000 random malformed calls across every method of `io.github.NotificationBridge1`, from a seeded generator.
    @Suite("random malformed calls")
    struct RandomMalformedCallTests {
        static let count = 10_000
        /// Calls in flight at once on each connection.
        static let window = 32
        static let connections = 4

        /// `NB_FUZZ_SEED` repeats a run; otherwise each run draws a new seed, printed with every failure.
        static var seed: UInt64 {
            ProcessInfo.processInfo.environment["NB_FUZZ_SEED"].flatMap { UInt64($0) }
                ?? UInt64.random(in: 0...UInt64.max)
        }

        /// The state the calls must not change: categories, what is pending and what is showing, as a baseline
        /// connection sees it.
        static func state(_ rig: DaemonRig, from connection: DBusConnection) async throws -> [DBusValue] {
            try await rig.call(BridgeMethod.listCategories.name, from: connection)
                + rig.call(
                    BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string("Baseline")])],
                    from: connection)
                + rig.call(
                    BridgeMethod.listDelivered.name,
                    [
                        .vardict([
                            FilterKeys.appName.name: .string("Baseline")
                        ])
                    ], from: connection)
        }

        @Test(
            "each gets the error its defect calls for (or a valid call's reply); the daemon and its state are intact"
        )
        func randomMalformedCalls() async throws {
            let seed = Self.seed
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                // Something in every part of the state, from a connection the random calls do not use.
                let baseline = try await rig.bus.connect()
                defer { Task { await baseline.close() } }
                try await rig.call(
                    BridgeMethod.registerCategory.name,
                    [
                        .string("org.example.baseline"),
                        .array(
                            element: "a{sv}",
                            [
                                .vardict([
                                    ActionKeys.id.name: .string("ok"), ActionKeys.title.name: .string("OK"),
                                ])
                            ]),
                        .vardict([:]),
                    ], from: baseline)
                let pending = try await rig.post(
                    [
                        PostKeys.title.name: .string("Later"), PostKeys.appName.name: .string("Baseline"),
                        PostKeys.delay.name: .double(3600),
                    ], from: baseline)
                let delivered = try await rig.post(
                    [
                        // Never expiring, so that it is still showing however long the run takes.
                        PostKeys.title.name: .string("Now"), PostKeys.appName.name: .string("Baseline"),
                        PostKeys.timeout.name: .int32(0),
                        PostKeys.category.name: .string("org.example.baseline"),
                    ],
                    from: baseline)
                let before = try await Self.state(rig, from: baseline)

                var generator = MalformedCallGenerator(seed: seed)
                let calls = (0..<Self.count).map { _ in generator.next() }
                let clients = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                    for _ in 0..<Self.connections { group.addTask { try await rig.bus.connect() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                defer { for client in clients { Task { await client.close() } } }

                let mismatches = Collector<String>()
                await withTaskGroup(of: Void.self) { group in
                    for (lane, client) in clients.enumerated() {
                        group.addTask {
                            await withTaskGroup(of: Void.self) { inFlight in
                                for (index, call) in calls.enumerated() where index % Self.connections == lane {
                                    if index / Self.connections >= Self.window { await inFlight.next() }
                                    inFlight.addTask {
                                        if let problem = await Self.check(call, on: client, rig: rig) {
                                            mismatches.append("call \(index): \(call): \(problem)")
                                        }
                                    }
                                }
                            }
                        }
                    }
                }

                let found = mismatches.all
                #expect(
                    found.isEmpty,
                    """
                    seed \(seed) (repeat with NB_FUZZ_SEED=\(seed)): \(found.count) of \(Self.count) calls got another \
                    answer; the first: \(found.prefix(5).joined(separator: "\n"))
                    """)
                #expect(daemon.poll() == nil, "seed \(seed): the daemon exited; log: \(rig.logText.suffix(2000))")
                let after = try await Self.state(rig, from: baseline)
                #expect(after == before, "seed \(seed): the state changed")
                #expect(
                    try await rig.pendingIDs(
                        [
                            FilterKeys.appName.name: .string("Baseline")
                        ], from: baseline) == [pending])
                // And it serves: a normal post shows, a category registers and is listed.
                let id = try await rig.post(
                    [
                        PostKeys.title.name: .string("Still here"), PostKeys.appName.name: .string("Baseline"),
                        PostKeys.timeout.name: .int32(0),
                    ],
                    from: baseline)
                #expect(id != delivered)
                #expect(
                    try await rig.listed(
                        BridgeMethod.listDelivered.name,
                        [
                            FilterKeys.appName.name: .string("Baseline")
                        ], from: baseline
                    ).count == 2)
                try await rig.call(
                    BridgeMethod.registerCategory.name,
                    [
                        .string("org.example.after"),
                        .array(
                            element: "a{sv}",
                            [
                                .vardict([
                                    ActionKeys.id.name: .string("ok"), ActionKeys.title.name: .string("OK"),
                                ])
                            ]),
                        .vardict([:]),
                    ], from: baseline)
                let categories = try await rig.call(BridgeMethod.listCategories.name)
                guard case .array(_, let registered)? = categories.first else {
                    throw TestSupportError("ListCategories returned \(categories)")
                }
                #expect(registered.count == 2)
            }
        }

        /// Makes one call; returns what was wrong with the answer, or `nil`.
        static func check(_ call: MalformedCallGenerator.Call, on client: DBusConnection, rig: DaemonRig) async
            -> String?
        {
            let result = await outcome {
                try await rig.call(call.method, call.arguments, from: client, timeout: .seconds(60))
            }
            switch (call.expected, result) {
            case (.error(let name), .failure(let error)):
                guard let failure = error as? DBusFailure else { return "threw \(error)" }
                guard failure.name == name else { return "got \(failure.name): \(failure.message.prefix(300))" }
                guard !failure.message.isEmpty, failure.message.utf8.count < 4096 else {
                    return "a message of \(failure.message.utf8.count) bytes"
                }
                return nil
            case (.reply(let expected), .success(let values)):
                return values == expected ? nil : "replied \(values)"
            case (.replyOfSignature(let signature), .success(let values)):
                let actual = values.map(\.signature.rawValue).joined()
                return actual == signature ? nil : "replied with signature '\(actual)'"
            case (_, .success(let values)):
                return "replied \("\(values)".prefix(300))"
            case (_, .failure(let error)):
                return "failed: \(error)"
            }
        }
    }
}
