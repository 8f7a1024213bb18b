import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// The daemon's memory over many post/close cycles.
    @Suite("memory")
    struct LeakTests {
        /// 30,000 in `make test`, so that it takes well under a minute; `NB_LEAK_CYCLES=100000` for the full run.
        static let cycles = max(
            ProcessInfo.processInfo.environment["NB_LEAK_CYCLES"].flatMap { Int($0) } ?? 30_000, warmUp * 2)
        static let warmUp = 10_000
        static let connections = 8
        /// Cycles each connection keeps in flight.
        static let window = 8
        /// The most resident memory may grow after the warm-up: 2 MiB, or 80 bytes a cycle over long runs, far below
        /// what keeping one notification per cycle would take (its content, ids and routing are several hundred).
        /// Measured: 36 KiB over 90,000 cycles.
        static var growthLimit: Int { max(2 << 20, 80 * (cycles - warmUp)) }

        /// The daemon's resident memory in bytes, from `/proc/<pid>/status`.
        static func residentMemory(of pid: pid_t) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            else { throw TestSupportError("no VmRSS in /proc/\(pid)/status") }
            return kilobytes * 1024
        }

        @Test("resident memory stays flat over many post/close cycles, closed both by Withdraw and by the server")
        func postCloseCycles() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                // The server's events are read as they come, so that the test's own memory stays flat too; every
                // other notification is dismissed by the server instead of withdrawn.
                let server = rig.server
                let events = rig.events
                let draining = Task {
                    var count = 0
                    for await case .notified(let notification) in events {
                        count += 1
                        if count.isMultiple(of: 2) { try? await server.dismiss(id: notification.id) }
                    }
                }
                defer { draining.cancel() }
                let clients = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                    for _ in 0..<Self.connections { group.addTask { try await rig.bus.connect() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                defer { for client in clients { Task { await client.close() } } }

                let (growth, before) = try await Self.growth(
                    of: daemon, warmUp: Self.warmUp, total: Self.cycles, what: "cycles"
                ) { count in try await Self.run(count, on: clients, rig: rig) }
                #expect(growth < Self.growthLimit, "grew by \(growth >> 10) KiB from \(before >> 10) KiB")
                #expect(
                    try await rig.listed(BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("Cycle")])
                        .count <= 1)
                #expect(daemon.poll() == nil)
            }
        }

        /// Posts and withdraws `count` notifications over `clients`, each keeping `window` cycles in flight.
        static func run(_ count: Int, on clients: [DBusConnection], rig: DaemonRig) async throws {
            try await cycles(count, over: clients, window: Self.window) { client, index in
                let id = try await rig.post(
                    [
                        PostKeys.title.name: .string("Cycle \(index)"), PostKeys.appName.name: .string("Cycle"),
                        PostKeys.actions.name: plainActions("ok"),
                    ],
                    from: client)
                // Already closed by the server (dismissed) is fine: then there is nothing to close.
                _ = try? await rig.call(BridgeMethod.withdraw.name, [.string(id)], from: client)
            }
        }

        /// Runs `count` cycles spread over `clients`, each connection keeping `window` of them in flight.
        static func cycles(
            _ count: Int, over clients: [DBusConnection], window: Int,
            _ cycle: @escaping @Sendable (DBusConnection, Int) async throws -> Void
        ) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (lane, client) in clients.enumerated() {
                    let share = count / clients.count + (lane < count % clients.count ? 1 : 0)
                    group.addTask {
                        try await withThrowingTaskGroup(of: Void.self) { inFlight in
                            for index in 0..<share {
                                if index >= window { try await inFlight.next() }
                                inFlight.addTask { try await cycle(client, index) }
                            }
                            try await inFlight.waitForAll()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }

        /// The daemon's growth in resident memory over `total` cycles after `warmUp` of them, printed and returned.
        static func growth(
            of daemon: ChildProcess, warmUp: Int, total: Int, what: String,
            _ run: (Int) async throws -> Void
        ) async throws -> (growth: Int, before: Int) {
            try await run(warmUp)
            let before = try residentMemory(of: daemon.pid)
            try await run(total - warmUp)
            let after = try residentMemory(of: daemon.pid)
            print(
                "notification-bridged resident memory: \(before >> 10) KiB after \(warmUp) \(what), "
                    + "\(after >> 10) KiB after \(total) (\((after - before) >> 10) KiB more)")
            return (after - before, before)
        }
    }
}

extension Reliability {
    /// The daemon's memory over many text-input actions whose prompt ends without text.
    @Suite("prompt memory")
    struct PromptLeakTests {
        /// 10,000 by default; `NB_PROMPT_CYCLES` sets another count (at least twice the warm-up).
        static let cycles = max(
            ProcessInfo.processInfo.environment["NB_PROMPT_CYCLES"].flatMap { Int($0) } ?? 10_000, warmUp * 2)
        static let warmUp = 2_000
        static let connections = 4
        static let window = 4
        /// 2 MiB, or 80 bytes a cycle over long runs: far below what keeping one notification per cycle would take.
        static var growthLimit: Int { max(2 << 20, 80 * (cycles - warmUp)) }

        @Test("every cancelled prompt ends its notification: waits end with Closed, memory stays flat")
        func cancelledPromptCycles() async throws {
            let cancel = try ExecutableScript.temporary("#!/bin/sh\nexit 1\n", name: "prompt-cancel")
            try await DaemonRig.with(.dunst) { rig in
                let daemon = try await rig.startDaemon(["--prompt-command", cancel])
                defer { daemon.stop() }
                // The user chooses Reply on every notification as it appears.
                let server = rig.server
                let events = rig.events
                let choosing = Task {
                    for await case .notified(let notification) in events {
                        try? await server.invokeAction(id: notification.id, key: "reply")
                    }
                }
                defer { choosing.cancel() }
                let clients = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                    for _ in 0..<Self.connections { group.addTask { try await rig.bus.connect() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                defer { for client in clients { Task { await client.close() } } }

                let (growth, before) = try await LeakTests.growth(
                    of: daemon, warmUp: Self.warmUp, total: Self.cycles, what: "prompt cycles"
                ) { count in try await Self.run(count, on: clients, rig: rig) }
                #expect(growth < Self.growthLimit, "grew by \(growth >> 10) KiB from \(before >> 10) KiB")
                #expect(
                    try await rig.listed(BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("Prompt")])
                        .isEmpty)
                #expect(daemon.poll() == nil)
            }
        }

        /// Posts `count` notifications with a text-input action over `clients` and waits for each to end.
        static func run(_ count: Int, on clients: [DBusConnection], rig: DaemonRig) async throws {
            try await LeakTests.cycles(count, over: clients, window: Self.window) { client, index in
                let id = try await rig.post(
                    [
                        PostKeys.title.name: .string("Prompt \(index)"), PostKeys.appName.name: .string("Prompt"),
                        PostKeys.actions.name: textInputActions("reply"),
                    ],
                    from: client)
                do {
                    _ = try await rig.call(BridgeMethod.waitForResponse.name, [.string(id)], from: client)
                    throw TestSupportError("notification \(id) got a response from a cancelled prompt")
                } catch let failure as DBusFailure {
                    #expect(failure.name == BridgeError.closed, "\(failure)")
                }
            }
        }
    }
}
