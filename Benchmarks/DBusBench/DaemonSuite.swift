import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationStore

/// The daemon as a long-running service: throughput under concurrent clients, resident memory (idle, over churn,
/// with many pending), start-up with a full store, lateness of scheduled notifications, and CPU when idle. Each part
/// starts its own daemon with a fresh state folder, so that one part's leftovers do not weigh on the next.
struct DaemonSuite {
    let options: Options
    let bus: PrivateBus
    let baseline: Baseline
    let server: BenchNotificationServer
    let client: DBusConnection

    private static let throughputGroup = "daemon throughput (libdbus clients posting at once, server answers in 1 ms)"
    private static let slowServerGroup = "other calls while a slow server holds Notify (200 ms each, one at a time)"
    private static let memoryGroup = "daemon resident memory and start-up"
    private static let scheduleGroup = "scheduled notifications"
    private static let idleGroup = "idle daemon"

    func run() async throws -> [ResultRow] {
        var rows = try await throughput()
        rows += try await slowServer()
        rows += try await memoryAndLoad()
        rows += try await lateness()
        return rows
    }

    private func startDaemon(_ stateHome: String) async throws -> DaemonProcess {
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: true)
        return try await DaemonProcess.start(
            executable: options.daemon, bus: bus, client: client, stateHome: stateHome)
    }

    private func freshStateHome(_ name: String) -> String {
        bus.directory.appendingPathComponent("state-\(name)").path
    }

    // MARK: Throughput

    private func throughput() async throws -> [ResultRow] {
        let daemon = try await startDaemon(freshStateHome("throughput"))
        defer { daemon.stop() }
        // A real server takes a moment; with one that answers at once there is nothing to overlap.
        server.setNotifyLatency(.concurrent(.milliseconds(1)))
        defer { server.setNotifyLatency(.none) }
        let levels = [1, 10, 50]
        var rates: [Int: [Double]] = [:]
        for round in 1...options.rounds {
            log("daemon throughput: round \(round) of \(options.rounds)")
            for clients in levels {
                let each = max(1, options.throughputPosts / clients)
                let object = try await baseline.run(["throughput", String(clients), String(each)])
                rates[clients, default: []].append(number(object, "per_second"))
                try await withdrawBaselinePosts(from: client)
            }
        }
        let one = medianOf(rates[1] ?? [])
        return levels.map { clients in
            let rate = medianOf(rates[clients] ?? [])
            let gain = String(format: "%.1f× one client", rate / one)
            return ResultRow(
                Self.throughputGroup, "\(clients) client\(clients == 1 ? "" : "s")", unit: .perSecond, median: rate,
                target: clients == 50 ? Thresholds.throughput.judge(rate, floor: one) : nil,
                note: clients == 1 ? nil : "(\(gain))")
        }
    }

    // MARK: Slow server

    /// Ten Posts at once to a server that takes 200 ms per `Notify`, one at a time (2 s for all ten), while one
    /// client keeps asking `ListPending`: how long those calls take meanwhile.
    private func slowServer() async throws -> [ResultRow] {
        let daemon = try await startDaemon(freshStateHome("slow-server"))
        defer { daemon.stop() }
        var samples: [Double] = []
        var postTimes: [Double] = []
        for round in 1...options.rounds {
            log("slow server: round \(round) of \(options.rounds)")
            server.setNotifyLatency(.serial(.milliseconds(200)))
            let posters = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                for _ in 0..<10 { group.addTask { try await bus.connect() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let started = monotonicNanoseconds()
            let posts = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, poster) in posters.enumerated() {
                        group.addTask {
                            var entries = WireEntries()
                            entries[PostKeys.title] = "Slow \(index)"
                            _ = try await BridgeProxy(connection: poster, timeout: .seconds(30)).post(entries)
                        }
                    }
                    try await group.waitForAll()
                }
                return Double(monotonicNanoseconds() - started)
            }
            // Asked for as long as the Posts are out (their 2 s), one call after the other.
            while monotonicNanoseconds() - started < 1_800_000_000 {
                let sent = monotonicNanoseconds()
                _ = try await listPending()
                samples.append(Double(monotonicNanoseconds() - sent))
            }
            postTimes.append(try await posts.value)
            server.setNotifyLatency(.none)
            for poster in posters { await poster.close() }
        }
        let latency = Latency(samples: samples)
        return [
            ResultRow(
                Self.slowServerGroup, "ListPending while ten Posts are out", latency: latency,
                target: Thresholds.listWhileServerIsSlow.judge(latency.p99, text: "p99 ≤ 20 ms"),
                note: "(\(samples.count) calls; the ten Posts took "
                    + String(format: "%.2f s", medianOf(postTimes) / 1e9)
                    + ", as the server answers them one at a time)")
        ]
    }

    // MARK: Memory and start-up

    private func memoryAndLoad() async throws -> [ResultRow] {
        let stateHome = freshStateHome("memory")
        var daemon = try await startDaemon(stateHome)
        defer { daemon.stop() }
        var rows: [ResultRow] = []

        // Idle: started, answered one call, settled.
        _ = try await listPending()
        try await Task.sleep(for: IdleAnchors.settle)
        let idleRSS = try daemon.memory.residentBytes()
        rows.append(
            ResultRow(
                Self.memoryGroup, "idle", unit: .bytes, median: idleRSS,
                target: Thresholds.idleMemory.judge(idleRSS, text: "≤ 10 MB"), note: daemon.memory.note))
        rows += await IdleAnchors(options: options, group: Self.memoryGroup).run()
        rows.append(
            ResultRow(
                Self.memoryGroup, "start → name owned, nothing stored", unit: .nanoseconds,
                median: daemon.startNanoseconds))

        // Churn: a warm-up lets the allocator reach its working size; growth is what the measured churn adds on top.
        log("daemon memory: churn of \(options.churn) posted-and-withdrawn notifications")
        _ = try await baseline.run(["churn", String(options.churnWarmUp)])
        let afterWarmUp = try daemon.memory.residentBytes()
        let churn = try await baseline.run(["churn", String(options.churn)], timeout: .seconds(900))
        let afterChurn = try daemon.memory.residentBytes()
        let churnBreakdown = daemon.memory.note
        let growth = afterChurn - afterWarmUp
        rows.append(
            ResultRow(
                Self.memoryGroup, "after \(options.churnWarmUp.formatted()) + \(options.churn.formatted()) churned",
                unit: .bytes, median: afterChurn,
                note: churnBreakdown
                    + String(
                        format: "; Post + Withdraw took %.0f µs",
                        number(churn, "total_ns") / 1e3
                            / Double(options.churn))))
        let full = options.churn >= 100_000
        rows.append(
            ResultRow(
                Self.memoryGroup, "growth over the churn", unit: .bytes, median: growth,
                target: full ? Thresholds.churnGrowth.judge(growth, text: "none (≤ 1 MB)") : nil,
                note: full ? nil : "QUICK run: the target applies to 100,000"))

        let leavingEmpty = try await cpuPerConnectionLeaving(daemon)

        // Pending: far in the future, so none fires while measured.
        log("daemon memory: \(options.pending) pending notifications")
        let schedule = try await baseline.run(
            ["schedule", String(options.pending), "31536000"], timeout: .seconds(900))
        // Read as the idle daemon's is, once it has settled: as a user sees it between notifications.
        try await Task.sleep(for: IdleAnchors.settle)
        let pendingRSS = try daemon.memory.residentBytes()
        let pendingBreakdown = daemon.memory.note
        let fullPending = options.pending >= 10_000
        rows.append(
            ResultRow(
                Self.memoryGroup, "with \(options.pending.formatted()) pending", unit: .bytes, median: pendingRSS,
                target: fullPending ? Thresholds.pendingMemory.judge(pendingRSS, text: "≤ 20 MB") : nil,
                note: pendingBreakdown
                    + String(
                        format: "; a scheduled Post took %.0f µs",
                        number(schedule, "total_ns")
                            / 1e3 / Double(options.pending))
                    + (fullPending ? "" : "; QUICK run: the target applies to 10,000")))

        // Every connection that leaves the bus (each notify-send, each gdbus call) is news to the daemon.
        let leaving = try await cpuPerConnectionLeaving(daemon)
        rows.append(
            ResultRow(
                Self.memoryGroup, "CPU per connection leaving the bus, \(options.pending.formatted()) pending",
                unit: .nanoseconds, median: leaving,
                note: String(
                    format: "(the daemon's threads by schedstat, over %d connections that call nothing; "
                        + "%.0f µs with nothing pending)", Self.leavingConnections, leavingEmpty / 1e3)))

        // Start-up with that store: from spawn to the name owned, and to the first answer listing them all, as a
        // client with nothing but libdbus sees it; then one listing read through the library.
        var owned: [Double] = []
        var answered: [Double] = []
        var listings: [Double] = []
        var libraryListings: [Double] = []
        var floors: [ListingFloor] = []
        var idleRows: [ResultRow] = []
        var shortAnswers = 0.0
        for attempt in 1...options.rounds {
            log("daemon start-up with \(options.pending) pending: \(attempt) of \(options.rounds)")
            let status = daemon.stop()
            if status != 0 {
                log("the daemon did not stop cleanly: exit status \(status.map(String.init) ?? "unknown")")
            }
            floors.append(try await listingFloor(keptIn: stateHome + "/notification-bridge/state.db"))
            let started = monotonicNanoseconds()
            daemon = try await startDaemon(stateHome)
            owned.append(daemon.startNanoseconds)
            // The daemon takes its name before it has restored what it keeps, and answers meanwhile: the client
            // asks until the list is whole, and counts its asks.
            let listed: [String: Any]
            do {
                listed = try await baseline.run(["list-pending", String(options.pending)], timeout: .seconds(90))
            } catch {
                let log = (try? String(contentsOfFile: daemon.log, encoding: .utf8)) ?? ""
                let files = (try? FileManager.default.contentsOfDirectory(atPath: stateHome + "/notification-bridge"))
                throw BenchError(
                    "\(error) (the daemon before stopped with status "
                        + "\(status.map(String.init) ?? "unknown")); state files: \(files ?? []); the daemon's log ends:\n"
                        + log.split(separator: "\n").suffix(15).joined(separator: "\n"))
            }
            answered.append(Double(monotonicNanoseconds() - started))
            try floors.last?.check(against: number(listed, "bytes"))
            shortAnswers += number(listed, "asks") - 1
            do {
                listings.append(
                    number(
                        try await baseline.run(["list-pending", String(options.pending)], timeout: .seconds(90)),
                        "total_ns"))
            } catch {
                throw BenchError("listing again, the daemon started: \(error)")
            }
            let reading = monotonicNanoseconds()
            let count = try await listPending()
            libraryListings.append(Double(monotonicNanoseconds() - reading))
            guard count == options.pending else {
                throw BenchError("the library lists \(count) pending notifications, not \(options.pending)")
            }
        }
        rows.append(
            ResultRow(
                Self.memoryGroup, "start → name owned, \(options.pending.formatted()) pending", unit: .nanoseconds,
                median: medianOf(owned)))
        let load = medianOf(answered)
        rows.append(
            ResultRow(
                Self.memoryGroup, "start → ListPending lists them all (libdbus client)", unit: .nanoseconds,
                median: load,
                target: fullPending
                    ? Thresholds.startToListed.judge(load, floor: medianOf(floors.map(\.answered))) : nil,
                note: shortAnswers == 0
                    ? nil
                    : "(\(Int(shortAnswers)) earlier ListPending answers over \(options.rounds) "
                        + "starts listed fewer: the daemon answers before it has restored them)"))
        rows.append(
            ResultRow(
                Self.memoryGroup,
                "the floor: a C server on libdbus and SQLite, start → it reads the rows and lists them",
                unit: .nanoseconds, median: medianOf(floors.map(\.answered)),
                note: "(dbus-raw-baseline serve-listing in the daemon's place: once it has the name, it reads every "
                    + "pending row of the daemon's database, then lists the same keys and values, built with libdbus; "
                    + "nothing decoded)"))
        rows.append(
            ResultRow(
                Self.memoryGroup, "ListPending lists them all, daemon started (libdbus client)", unit: .nanoseconds,
                median: medianOf(listings)))
        rows.append(
            ResultRow(
                Self.memoryGroup, "the same from the C server, the list built when asked", unit: .nanoseconds,
                median: medianOf(floors.map(\.running))))
        rows.append(
            ResultRow(
                Self.memoryGroup, "the same from the C server, the list built before it is asked", unit: .nanoseconds,
                median: medianOf(floors.map(\.prebuilt)), note: "(copied for each call: the bus and the client alone)"))
        rows.append(
            ResultRow(
                Self.memoryGroup, "ListPending of them all read through the library, daemon started",
                unit: .nanoseconds,
                median: medianOf(libraryListings),
                note: "(BridgeProxy.listPending: the call, and each notification read into a ListedNotification)"))
        try await Task.sleep(for: IdleAnchors.settle)
        let restartedRSS = try daemon.memory.residentBytes()
        rows.append(
            ResultRow(
                Self.memoryGroup, "restarted with them", unit: .bytes, median: restartedRSS,
                target: fullPending ? Thresholds.pendingMemory.judge(restartedRSS, text: "≤ 20 MB") : nil,
                note: daemon.memory.note)
        )

        idleRows = try await idle(daemon, what: "with \(options.pending.formatted()) pending")
        return rows + idleRows
    }

    private static let leavingConnections = 100

    /// What listing them all costs a C server on libdbus (and SQLite, to read them at its start), in nanoseconds.
    private struct ListingFloor {
        /// From its spawn to the first answer that lists them all.
        var answered: Double
        /// One more listing, the list built when asked.
        var running: Double
        /// A listing from a server that built the list before it was asked.
        var prebuilt: Double
        /// The size of its reply.
        var bytes: Double

        /// Fails unless a reply of `daemonBytes` is the same listing: only the header's names may differ (the bus
        /// numbers its connections), by a few bytes.
        func check(against daemonBytes: Double) throws {
            guard abs(daemonBytes - bytes) > 16 else { return }
            throw BenchError(
                "the C server's listing is \(Int(bytes)) bytes and the daemon's \(Int(daemonBytes)): "
                    + "it is no floor until serve-listing (Benchmarks/raw-baseline) lists the keys and values the "
                    + "daemon lists")
        }
    }

    /// The floor under listing the pending notifications: `dbus-raw-baseline serve-listing` in the daemon's place (call
    /// it while the daemon is stopped), listed by the same libdbus client as the daemon; it leaves the name free. Its
    /// first start reads the rows the daemon keeps in `database`, as the daemon's start does.
    private func listingFloor(keptIn database: String) async throws -> ListingFloor {
        let count = String(options.pending)
        var bytes = 0.0
        func listed() async throws -> Double {
            do {
                let listing = try await baseline.run(["list-pending", count], timeout: .seconds(90))
                bytes = number(listing, "bytes")
                return number(listing, "total_ns")
            } catch {
                throw BenchError("listing from the C server: \(error)")
            }
        }
        // Runs the C server with `arguments` for `body`, then stops it.
        func serving<T>(_ arguments: [String], _ body: () async throws -> T) async throws -> T {
            // Its `ready` is not needed: the client asks again until the name is served.
            let quiet = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(quiet) }
            let server = try ChildProcess.spawn(
                [baseline.path, "serve-listing", count] + arguments, environment: bus.environment,
                standardOutput: quiet)
            do {
                let result = try await body()
                try await stopOwner(server)
                return result
            } catch {
                server.stop(grace: .seconds(1))
                throw error
            }
        }
        let started = monotonicNanoseconds()
        let (answered, running) = try await serving(["rows", database]) {
            _ = try await listed()
            return (Double(monotonicNanoseconds() - started), try await listed())
        }
        // The first listing waits for the server to build the list and take the name: the second is measured.
        let prebuilt = try await serving(["prebuilt"]) {
            _ = try await listed()
            return try await listed()
        }
        return ListingFloor(answered: answered, running: running, prebuilt: prebuilt, bytes: bytes)
    }

    /// Stops a process that owns the daemon's name and returns once the bus has freed the name.
    private func stopOwner(_ owner: ChildProcess) async throws {
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        owner.stop(grace: .seconds(1))
        guard try await client.nameHasOwner(BridgeAPI.busName) else { return }
        try await withTimeout(.seconds(10), waitingFor: "the name to be free") {
            for await owner in owners where owner == nil { return }
        }
    }

    /// The daemon's CPU time per connection that joins the bus and leaves without calling it, in nanoseconds.
    private func cpuPerConnectionLeaving(_ daemon: DaemonProcess) async throws -> Double {
        func spent() -> Double { daemon.threadActivity().values.reduce(0) { $0 + $1.cpuNanoseconds } }
        let before = spent()
        for _ in 0..<Self.leavingConnections {
            let connection = try await bus.connect()
            await connection.close()
        }
        // The daemon hears of each through NameOwnerChanged; a call answered after them lets it catch up.
        _ = try await BridgeProxy(connection: client).listCategories()
        try await Task.sleep(for: .milliseconds(200))
        return (spent() - before) / Double(Self.leavingConnections)
    }

    /// Asks the daemon for the pending notifications of the app name they were posted under (the daemon's default;
    /// without a name it would list only the caller's own); returns how many.
    private func listPending() async throws -> Int {
        try await BridgeProxy(connection: client, timeout: .seconds(60))
            .listPending(NotificationFilter(appName: "NotificationBridge")).count
    }

    // MARK: Idle

    /// CPU time and wake-ups of `daemon` over the idle window. It first settles for longer than the 5 s after which
    /// the Swift runtime's idle worker threads exit, so that their exits are not counted as the daemon's own activity.
    private func idle(_ daemon: DaemonProcess, what: String) async throws -> [ResultRow] {
        log("idle daemon: \(options.idleSeconds) s, after settling for 6 s")
        try await Task.sleep(for: .seconds(6))
        let ticks = try daemon.cpuTicks()
        let before = daemon.threadActivity()
        try await Task.sleep(for: .seconds(options.idleSeconds))
        let spentTicks = try daemon.cpuTicks() - ticks
        let after = daemon.threadActivity()
        var wakeUps = 0.0
        var spent = 0.0
        var byThread: [String] = []
        for (thread, now) in after.sorted(by: { $0.key < $1.key }) {
            let then = before[thread] ?? (switches: 0, cpuNanoseconds: 0)
            wakeUps += now.switches - then.switches
            spent += now.cpuNanoseconds - then.cpuNanoseconds
            if now.switches > then.switches { byThread.append("\(thread): \(Int(now.switches - then.switches))") }
        }
        let exited = before.keys.filter { after[$0] == nil }.count
        if exited > 0 { byThread.append("\(exited) thread\(exited == 1 ? "" : "s") exited") }
        return [
            ResultRow(
                Self.idleGroup, "CPU over \(options.idleSeconds) s, \(what)", unit: .clockTicks, median: spentTicks,
                target: .init(text: "zero", met: spentTicks == 0),
                note: String(format: "(%.0f µs by the threads' schedstat)", spent / 1e3)),
            ResultRow(
                Self.idleGroup, "wake-ups over \(options.idleSeconds) s", unit: .count, median: wakeUps,
                target: .init(text: "zero", met: wakeUps == 0 && exited == 0),
                note: byThread.isEmpty ? nil : "(by thread: " + byThread.joined(separator: ", ") + ")"),
        ]
    }

    // MARK: Lateness

    /// Schedules notifications to fire `spacing` apart, all due after the last Post has returned (a scheduled Post
    /// waits for the disk, and fires must not queue behind Posts), and times their arrival at the server against when
    /// they were due. Each `in` is counted from just before its Post is sent, so a figure errs late by at most a
    /// one-way trip.
    private func lateness() async throws -> [ResultRow] {
        let daemon = try await startDaemon(freshStateHome("lateness"))
        defer { daemon.stop() }
        log("scheduled fires: \(options.scheduled) notifications")
        var due: [String: UInt64] = [:]
        let spacing: UInt64 = 10_000_000
        let start = monotonicNanoseconds()
        let firstDue = start + 1_000_000_000 + UInt64(options.scheduled) * 25_000_000
        for index in 0..<options.scheduled {
            let summary = BenchNotificationServer.arrivalPrefix + String(index)
            let at = firstDue + UInt64(index) * spacing
            let sent = monotonicNanoseconds()
            var entries = WireEntries()
            entries[PostKeys.title] = summary
            entries[PostKeys.delay] = Double(at - sent) / 1e9
            _ = try await BridgeProxy(connection: client).post(entries)
            due[summary] = at
        }
        let overlapped = monotonicNanoseconds() > firstDue
        let deadline =
            ContinuousClock.now + .seconds(Double(firstDue - start) / 1e9 + Double(options.scheduled) / 100 + 10)
        var arrived = server.arrivals()
        while arrived.count < options.scheduled && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            arrived = server.arrivals()
        }
        guard arrived.count == options.scheduled else {
            throw BenchError("\(arrived.count) of \(options.scheduled) scheduled notifications arrived in time")
        }
        let late = due.map { summary, at in Double(Int64(arrived[summary]!) - Int64(at)) }
        let latency = Latency(samples: late)
        var rows = [
            ResultRow(
                Self.scheduleGroup, "lateness of \(options.scheduled) fires", latency: latency,
                target: Thresholds.fireLateness.judge(latency.p99, text: "p99 ≤ 10 ms"),
                note: String(format: "(%d ms apart; earliest %.1f ms)", spacing / 1_000_000, (late.min() ?? 0) / 1e6)
                    + (overlapped ? "; posting ran past the first fire, so fires queued behind posts" : ""))
        ]
        rows += try await idle(daemon, what: "after they fired")
        return rows
    }
}
