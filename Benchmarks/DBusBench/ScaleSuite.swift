import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI

/// What a listing, a withdrawal and a restart cost as the notifications they touch grow: 1,000, 10,000 and 100,000
/// (the last left out of a QUICK run). One client posts them all, over as many app names as the daemon's bound of
/// 10,000 per app needs, so that one `ListDelivered` and one `WithdrawAll` without a filter (the caller's own) touch
/// every one. Each cost is judged against linear: the smallest size's cost, scaled by how many more it touches. The
/// daemon's CPU time for a listing and a withdrawal is in the note: on a loaded machine, steadier than the time. The
/// scheduled ones are withdrawn after the restart, and the memory that leaves judged against the same idle figure.
struct ScaleSuite {
    let options: Options
    let bus: PrivateBus
    let server: BenchNotificationServer
    let client: DBusConnection

    private static let group = "scale: one client's notifications listed, withdrawn, restarted with"
    /// Calls the posting client keeps in flight: within the private bus's bound on the replies one connection may
    /// wait for, with the daemon's own `Notify` calls to the server on top.
    private static let window = 32
    /// The most notifications one app may have showing or scheduled.
    private static let perApp = 10_000

    /// The figures of one size.
    private struct Measure {
        var size: Int
        var listing: Double
        /// The daemon's CPU time for the listing, in clock ticks: on a loaded machine, a steadier figure than the time.
        var listingTicks: Double
        var withdrawal: Double
        /// The daemon's CPU time from the `WithdrawAll` to the last close answered, in clock ticks.
        var withdrawalTicks: Double
        var closed: Double
        var idleBytes: Double
        var peakBytes: Double
        var afterBytes: Double
        var restart: Double
        /// `WithdrawAll` of the pending ones after the restart, every app's.
        var pendingWithdrawal: Double
        var afterPendingBytes: Double
    }

    func run() async throws -> [ResultRow] {
        var measures: [Measure] = []
        for size in options.scaleSizes {
            measures.append(try await measure(size))
        }
        guard let smallest = measures.first else { return [] }
        var rows: [ResultRow] = []
        for measure in measures {
            let size = measure.size.formatted()
            // Linear from the smallest size: what the figure would be if each notification cost what one did there.
            func linear(_ figure: Double, _ smallestFigure: Double) -> ResultRow.Target? {
                guard measure.size != smallest.size else { return nil }
                return Thresholds.linearScale.judge(
                    figure, floor: smallestFigure * Double(measure.size) / Double(smallest.size))
            }
            func each(_ figure: Double) -> String {
                String(format: "(%.1f µs each)", figure / 1e3 / Double(measure.size))
            }
            func cpu(_ ticks: Double) -> String {
                String(format: " (daemon CPU %.2f s)", ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
            }
            rows.append(
                ResultRow(
                    Self.group, "ListDelivered of \(size) showing", unit: .nanoseconds, median: measure.listing,
                    target: linear(measure.listing, smallest.listing),
                    note: each(measure.listing) + cpu(measure.listingTicks)))
            let withdrawalTarget =
                measure.size >= 100_000
                ? Thresholds.withdrawAll.judge(measure.withdrawal, text: "≤ 2 s")
                : linear(measure.withdrawal, smallest.withdrawal)
            rows.append(
                ResultRow(
                    Self.group, "WithdrawAll of \(size) showing, answered", unit: .nanoseconds,
                    median: measure.withdrawal, target: withdrawalTarget, note: each(measure.withdrawal)))
            rows.append(
                ResultRow(
                    Self.group, "… and every one closed on the server", unit: .nanoseconds, median: measure.closed,
                    target: linear(measure.closed, smallest.closed),
                    note: each(measure.closed) + " (the closes go out after the answer, 32 at a time)"
                        + cpu(measure.withdrawalTicks)))
            rows.append(
                ResultRow(
                    Self.group, "resident memory after withdrawing \(size)", unit: .bytes, median: measure.afterBytes,
                    target: Thresholds.memoryAfterWithdrawal.judge(measure.afterBytes, floor: measure.idleBytes),
                    note: String(
                        format: "(%.1f MB idle before, %.1f MB with them showing)", measure.idleBytes / 1e6,
                        measure.peakBytes / 1e6)))
            rows.append(
                ResultRow(
                    Self.group, "start → \(size) pending listed", unit: .nanoseconds, median: measure.restart,
                    target: linear(measure.restart, smallest.restart),
                    note: each(measure.restart) + " (from the spawn to every app's ListPending listing them all)"))
            rows.append(
                ResultRow(
                    Self.group, "resident memory after withdrawing \(size) pending", unit: .bytes,
                    median: measure.afterPendingBytes,
                    target: Thresholds.memoryAfterWithdrawal.judge(measure.afterPendingBytes, floor: measure.idleBytes),
                    note: String(
                        format: "(%.1f MB idle before the showing ones; withdrawn in %.2f s after the restart)",
                        measure.idleBytes / 1e6, measure.pendingWithdrawal / 1e9)))
        }
        return rows
    }

    private func measure(_ size: Int) async throws -> Measure {
        let stateHome = bus.directory.appendingPathComponent("state-scale-\(size)").path
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: true)
        var daemon = try await DaemonProcess.start(
            executable: options.daemon, bus: bus, client: client, stateHome: stateHome)
        defer { daemon.stop() }
        let poster = try await bus.connect()
        defer { Task { await poster.close() } }
        let apps = (size + Self.perApp - 1) / Self.perApp

        // What other daemons of the run left on the server.
        let leftOver = server.showing
        // Idle, as a served daemon is: a round of posts and withdrawals first, so that its buffers are there.
        try await post(1_000, from: poster, apps: 1, delay: nil)
        _ = try await call(BridgeMethod.withdrawAll.name, [WireEntries().value], on: poster)
        try await waitForServer(showing: leftOver)
        try await Task.sleep(for: IdleAnchors.settle)
        let idle = try daemon.memory.residentBytes()

        log("scale: \(size.formatted()) showing")
        try await post(size, from: poster, apps: apps, delay: nil)
        let peak = try daemon.memory.residentBytes()
        var ticks = try daemon.cpuTicks()
        var started = monotonicNanoseconds()
        let listed = try await call(BridgeMethod.listDelivered.name, [WireEntries().value], on: poster)
        let listing = Double(monotonicNanoseconds() - started)
        let listingTicks = try daemon.cpuTicks() - ticks
        guard Self.count(listed) == size else {
            throw BenchError("ListDelivered listed \(Self.count(listed)) of \(size) showing")
        }
        ticks = try daemon.cpuTicks()
        started = monotonicNanoseconds()
        let withdrawn = try await call(BridgeMethod.withdrawAll.name, [WireEntries().value], on: poster)
        let withdrawal = Double(monotonicNanoseconds() - started)
        guard Self.count(withdrawn) == size else {
            throw BenchError("WithdrawAll withdrew \(Self.count(withdrawn)) of \(size) showing")
        }
        try await waitForServer(showing: leftOver)
        let closed = Double(monotonicNanoseconds() - started)
        let withdrawalTicks = try daemon.cpuTicks() - ticks
        try await Task.sleep(for: IdleAnchors.settle)
        let after = try daemon.memory.residentBytes()

        log("scale: \(size.formatted()) pending, then a restart")
        try await post(size, from: poster, apps: apps, delay: 31_536_000)
        daemon.stop()
        started = monotonicNanoseconds()
        daemon = try await DaemonProcess.start(
            executable: options.daemon, bus: bus, client: client, stateHome: stateHome)
        // The daemon answers before it has restored what it keeps: each app is asked until it lists them all.
        for app in 0..<apps {
            let expected = min(Self.perApp, size - app * Self.perApp)
            var filter = WireEntries()
            filter[FilterKeys.appName] = Self.appName(app)
            while Self.count(try await call(BridgeMethod.listPending.name, [filter.value], on: client)) < expected {
                guard Double(monotonicNanoseconds() - started) < 120e9 else {
                    throw BenchError("the restarted daemon did not list \(expected) pending of \(Self.appName(app))")
                }
            }
        }
        let restart = Double(monotonicNanoseconds() - started)

        log("scale: \(size.formatted()) pending withdrawn")
        started = monotonicNanoseconds()
        for app in 0..<apps {
            var filter = WireEntries()
            filter[FilterKeys.appName] = Self.appName(app)
            _ = try await call(BridgeMethod.withdrawAll.name, [filter.value], on: client)
        }
        let pendingWithdrawal = Double(monotonicNanoseconds() - started)
        guard Self.count(try await call(BridgeMethod.listPending.name, [WireEntries().value], on: client)) == 0 else {
            throw BenchError("the restarted daemon still lists pending notifications after WithdrawAll")
        }
        try await Task.sleep(for: IdleAnchors.settle)
        let afterPending = try daemon.memory.residentBytes()
        return Measure(
            size: size, listing: listing, listingTicks: listingTicks, withdrawal: withdrawal,
            withdrawalTicks: withdrawalTicks, closed: closed, idleBytes: idle, peakBytes: peak,
            afterBytes: after, restart: restart, pendingWithdrawal: pendingWithdrawal, afterPendingBytes: afterPending)
    }

    private static func appName(_ index: Int) -> String { "Scale \(index)" }

    /// Posts `count` notifications from `connection`, the first 10,000 as one app, the next as another, and so on;
    /// showing at once, or after `delay` seconds.
    private func post(_ count: Int, from connection: DBusConnection, apps: Int, delay: Double?) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if index >= Self.window { try await group.next() }
                var entries = WireEntries()
                entries[PostKeys.title] = "Parcel \(index)"
                entries[PostKeys.body] = "Out for delivery, between 10:00 and 12:00"
                entries[PostKeys.appName] = Self.appName(index / Self.perApp % max(apps, 1))
                if let delay { entries[PostKeys.delay] = delay }
                group.addTask { _ = try await call(BridgeMethod.post.name, [entries.value], on: connection) }
            }
            try await group.waitForAll()
        }
    }

    private func call(_ method: String, _ arguments: [DBusValue], on connection: DBusConnection) async throws
        -> [DBusValue]
    {
        try await connection.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method, arguments: arguments, timeout: .seconds(300))
    }

    /// Waits until the benchmark's server shows `count` notifications, for at most two minutes.
    private func waitForServer(showing count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while server.showing != count {
            guard ContinuousClock.now < deadline else {
                throw BenchError("the server still shows \(server.showing) notifications, not \(count)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How many items the one array of `reply` holds.
    private static func count(_ reply: [DBusValue]) -> Int {
        guard reply.count == 1, case .array(_, let items) = reply[0] else { return -1 }
        return items.count
    }
}
