import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationStore

/// Posting and response dispatch: the bridge's three ways in (Swift library, daemon over D-Bus, CLI) against raw
/// libdbus and the usual command-line clients, all posting to the benchmark's own server on one private bus.
/// Rounds alternate between all of them so that machine noise hits each alike.
struct NotificationSuite {
    let options: Options
    let bus: PrivateBus
    let baseline: Baseline
    let server: BenchNotificationServer

    private static let group = "post round trip"
    private static let processGroup = "post as a whole process"
    private static let dispatchGroup = "response dispatch (server signal → handler)"

    func run() async throws -> [ResultRow] {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        // The user's settings are applied, as in an app, but from a file of the benchmark's own.
        var configuration = DesktopNotificationCenter.Configuration(appName: "Bench", activatesApplications: false)
        configuration.settingsLocation = .file
        configuration.settingsDirectory = bus.directory.appendingPathComponent("config/notification-bridge").path
        let center = try await DesktopNotificationCenter(connection: connection, systemConnection: nil, configuration)
        let open = NotificationAction(id: "open", title: "Open", activation: .background)
        try await center.setNotificationCategories([NotificationCategory(id: "bench", actions: [open])])
        let handled = HandlerClock()
        let asyncFloor = try RawConnectionThread(address: bus.address)
        defer { asyncFloor.stop() }
        try await asyncFloor.run { try RawConnectionThread.watchActions($0) }
        let postFloor = try startPostFloor()
        defer { postFloor.stop(grace: .seconds(1)) }
        await center.setHandler(forAction: "open", inCategory: "bench") { _ in
            handled.handlerStarted()
        }

        let posts = String(options.posts)
        let spawns = String(options.processRuns)
        let dispatches = String(options.dispatches)
        let cli = [options.cli, "send", "Bench", "a notification from the benchmark"]
        let sendFloor =
            options.sendFloor.isEmpty
            ? nil
            : [
                options.sendFloor, PostKeys.title.name, "Bench", PostKeys.body.name,
                "a notification from the benchmark",
            ]
        let notifySend = ExecutableLookup.find("notify-send").map {
            [$0.path, "--app-name=Bench", "Bench", "a notification from the benchmark"]
        }
        let gdbus = ExecutableLookup.find("gdbus").map {
            [
                $0.path, "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                BridgeAPI.objectPath.rawValue, "--method", BridgeAPI.interfaceName + "." + BridgeMethod.post.name,
                "{'title': <'Bench'>, 'body': <'a notification from the benchmark'>}",
            ]
        }

        var postFloorPost: [Latency] = []
        var rawNotify: [Latency] = [], asyncNotify: [Latency] = [], library: [Latency] = [],
            libraryOnLoop: [Latency] = [], daemonPost: [Latency] = []
        var cliRuns: [Latency] = [], notifySendRuns: [Latency] = [], gdbusRuns: [Latency] = []
        var sendFloorRuns: [Latency] = []
        var rawDispatch: [Latency] = [], asyncDispatch: [Latency] = [], libraryDispatch: [Latency] = [],
            daemonDispatch: [Latency] = []
        // The center's work (the server's signals reach its handlers there) runs in its run(), as in an app.
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await center.run() }
            for round in 1...options.rounds {
                log("posting and dispatch: round \(round) of \(options.rounds)")
                rawNotify.append(try await baseline.latency(["notify", posts]))
                asyncNotify.append(try await floorPosts(asyncFloor, count: options.posts))
                library.append(try await libraryPosts(center, count: options.posts))
                libraryOnLoop.append(
                    try await withTaskExecutorPreference(connection.executor) {
                        try await libraryPosts(center, count: options.posts)
                    })
                daemonPost.append(try await baseline.latency(["post", posts]))
                postFloorPost.append(try await baseline.latency(["post", posts, Self.postFloorName]))
                try await withdrawBaselinePosts(from: connection)
                cliRuns.append(try await baseline.latency(["spawn", spawns] + cli))
                if let sendFloor { sendFloorRuns.append(try await baseline.latency(["spawn", spawns] + sendFloor)) }
                if let notifySend { notifySendRuns.append(try await baseline.latency(["spawn", spawns] + notifySend)) }
                if let gdbus { gdbusRuns.append(try await baseline.latency(["spawn", spawns] + gdbus)) }

                _ = server.takeEmitted()
                rawDispatch.append(try await receiveLatency(["action-listen", dispatches]))
                asyncDispatch.append(try await floorDispatches(asyncFloor, handled, count: options.dispatches))
                libraryDispatch.append(try await libraryDispatches(center, handled, count: options.dispatches))
                daemonDispatch.append(try await receiveLatency(["respond-listen", dispatches]))
            }
            group.cancelAll()
        }

        let floor = Latency.medianOfRounds(rawNotify)
        let asyncFloorPost = Latency.medianOfRounds(asyncNotify)
        let libraryPost = Latency.medianOfRounds(library)
        let onLoop = Latency.medianOfRounds(libraryOnLoop)
        let daemon = Latency.medianOfRounds(daemonPost)
        let servePost = Latency.medianOfRounds(postFloorPost)
        var rows = [
            ResultRow(Self.group, "raw libdbus Notify (the floor)", latency: floor, floor: floor),
            ResultRow(
                Self.group, "the floor of an async call", latency: asyncFloorPost, floor: floor,
                note:
                    "(the same Notify made on a thread that owns the connection, awaited by a task: the hand-offs alone)"
            ),
            ResultRow(
                Self.group, "Swift library: center.post", latency: libraryPost, floor: floor,
                target: Thresholds.centerPost.judge(libraryPost.median, floor: asyncFloorPost.median)),
            ResultRow(
                Self.group, "center.post from the connection's executor", latency: onLoop, floor: floor,
                target: Thresholds.centerPost.judge(onLoop.median, floor: asyncFloorPost.median)),
            ResultRow(
                Self.group, "daemon Post, libdbus client", latency: daemon, floor: floor,
                target: Thresholds.daemonPost.judge(daemon.median, floor: servePost.median)),
            ResultRow(
                Self.group, "the floor: Post to a C server on libdbus and SQLite",
                latency: servePost,
                floor: floor,
                note: "(dbus-raw-baseline serve-post: reads the title and body, Notify, one row committed, the reply)"),
        ]
        let cliLatency = Latency.medianOfRounds(cliRuns)
        let notifySendLatency = notifySendRuns.isEmpty ? nil : Latency.medianOfRounds(notifySendRuns)
        rows.append(
            ResultRow(
                Self.processGroup, "notification-bridge send", latency: cliLatency, floor: floor,
                target: notifySendLatency.map {
                    Thresholds.send.judge(cliLatency.median, floor: $0.median)
                }))
        if let notifySendLatency {
            rows.append(ResultRow(Self.processGroup, "notify-send", latency: notifySendLatency, floor: floor))
        }
        if !sendFloorRuns.isEmpty {
            let sendFloorLatency = Latency.medianOfRounds(sendFloorRuns)
            rows.append(
                ResultRow(
                    Self.processGroup, "the floor: the same Post from a Swift program on libdbus alone",
                    latency: sendFloorLatency, floor: floor,
                    note: notifySendLatency.map {
                        String(
                            format: "(%.2f× notify-send: the start of a Swift program, the bus's Hello, the Post)",
                            sendFloorLatency.median / $0.median)
                    }))
        }
        if !gdbusRuns.isEmpty {
            rows.append(
                ResultRow(
                    Self.processGroup, "gdbus call … Post", latency: .medianOfRounds(gdbusRuns), floor: floor))
        }
        let dispatchFloor = Latency.medianOfRounds(rawDispatch)
        let asyncDispatchFloor = Latency.medianOfRounds(asyncDispatch)
        let libraryHandler = Latency.medianOfRounds(libraryDispatch)
        let daemonSignal = Latency.medianOfRounds(daemonDispatch)
        rows += [
            ResultRow(
                Self.dispatchGroup, "raw libdbus: ActionInvoked received (floor)", latency: dispatchFloor,
                floor: dispatchFloor),
            ResultRow(
                Self.dispatchGroup, "the floor of an async handler", latency: asyncDispatchFloor,
                floor: dispatchFloor,
                note:
                    "(the same signal read on a thread that owns the connection, which starts a task: the hand-off alone)"
            ),
            ResultRow(
                Self.dispatchGroup, "Swift library: handler runs", latency: libraryHandler, floor: dispatchFloor,
                target: Thresholds.dispatch.judge(libraryHandler.median, floor: asyncDispatchFloor.median)),
            ResultRow(
                Self.dispatchGroup, "daemon: Responded at a libdbus client", latency: daemonSignal,
                floor: dispatchFloor,
                note: "two hops (server → daemon → client) against the floor's one"),
        ]
        return rows
    }

    /// The bus name `dbus-raw-baseline serve-post` answers `Post` under, beside the daemon's.
    static let postFloorName = "io.github.NotificationBridge.PostFloor"

    /// Starts `dbus-raw-baseline serve-post`, the floor under the daemon's `Post`, with a database of its own.
    private func startPostFloor() throws -> ChildProcess {
        let directory = bus.directory.appendingPathComponent("post-floor")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try baseline.start(["serve-post", directory.path], waitingFor: "the C Post server to be ready").0
    }

    /// Sequential posts from an ordinary task, as an app makes them; each sample is one `post` call.
    private func libraryPosts(_ center: DesktopNotificationCenter, count: Int) async throws -> Latency {
        let content = NotificationContent(title: "Bench", body: "a notification from the benchmark")
        return try await Latency.timing(count, warmUp: options.warmUp) { try await center.post(content) }
    }

    /// The C client's `Notify`, made by a task through ``RawConnectionThread``.
    private func floorPosts(_ floor: RawConnectionThread, count: Int) async throws -> Latency {
        try await Latency.timing(count, warmUp: options.warmUp) {
            _ = try await floor.run { try RawConnectionThread.notify($0, withAction: false) }
        }
    }

    /// As ``libraryDispatches(_:_:count:)``, with the C client's `Notify` and its wait for `ActionInvoked` made on
    /// ``RawConnectionThread``'s thread, which starts a task for each signal; the task is the handler.
    private func floorDispatches(
        _ floor: RawConnectionThread, _ handled: HandlerClock, count: Int
    ) async throws -> Latency {
        var samples: [Double] = []
        _ = server.takeEmitted()
        try await handled.bounded(by: .seconds(10), waitingFor: "the async floor's task to start") {
            for _ in 0..<count {
                let id = try await floor.run { try RawConnectionThread.notify($0, withAction: true) }
                floor.submit { connection in
                    guard RawConnectionThread.awaitAction(connection, id: id, within: .seconds(10)) else { return }
                    Task.detached { handled.handlerStarted() }
                }
                let at = try await handled.time { try server.invoke(id: id, key: "open") }
                let emitted = server.takeEmitted()
                samples.append(Double(at) - Double(emitted.last ?? at))
            }
        }
        return Latency(samples: samples)
    }

    /// For each sample: posts a notification of the `bench` category, has the server click `open`, and times from
    /// just before the server's `ActionInvoked` leaves to the start of the handler. Nothing of the benchmark's own
    /// runs in between (see ``HandlerClock``), as nothing does in the C client it is compared with.
    private func libraryDispatches(
        _ center: DesktopNotificationCenter, _ handled: HandlerClock, count: Int
    ) async throws -> Latency {
        var content = NotificationContent(title: "Bench", body: "a notification from the benchmark")
        content.categoryID = "bench"
        var samples: [Double] = []
        _ = server.takeEmitted()
        try await handled.bounded(by: .seconds(10), waitingFor: "the library's handler to run") {
            for _ in 0..<count {
                try await center.post(content)
                let at = try await handled.time { try server.invoke(id: server.latestID, key: "open") }
                let emitted = server.takeEmitted()
                samples.append(Double(at) - Double(emitted.last ?? at))
            }
        }
        return Latency(samples: samples)
    }

    /// Runs a C receiver mode and pairs its receive times with the server's emit times, in order.
    private func receiveLatency(_ arguments: [String]) async throws -> Latency {
        _ = server.takeEmitted()
        let object = try await baseline.run(arguments)
        let received = (object["received_ns"] as? [NSNumber])?.map(\.doubleValue) ?? []
        let emitted = server.takeEmitted().map { Double($0) }
        guard !received.isEmpty, received.count == emitted.count else {
            throw BenchError("\(arguments[0]): \(received.count) signals received, \(emitted.count) emitted")
        }
        return Latency(samples: zip(received, emitted).map { $0 - $1 })
    }
}

/// Progress on standard error, so that standard output holds the table alone.
func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
