import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Synchronization
import Testing

/// A seeded random run of the daemon, in this process on a private bus, against the scripted server as dunst: posts
/// at every interruption level, thread posts, replacements, withdrawals, clicks and dismissals on the server, the
/// desktop's do-not-disturb turned on and off, restarts of the server (it goes away and a new one takes the name) and
/// of the daemon on the same state (gracefully, or killed without a graceful stop), checked after every step against
/// a model of what a client was told. A failure names its seed and step; `NB_SIMULATION_SEED=<seed>` replays its
/// choices (the daemon's own timing may still differ), `NB_SIMULATION_STEPS=<n>` sets the length (each step is a few
/// round trips on the bus: a few milliseconds), and `NB_SIMULATION_TRACE=1` prints each step with the model before
/// it.
@Suite("Daemon simulation")
struct DaemonSimulationTests {
    static let threads = ["ann", "bob"]
    /// A thread is kept well under ``ThreadBook/maximumMembers``: the model does not follow what a long thread lets go.
    static let longestThread = 12
    /// The most notifications delivered at once: beyond it the run withdraws rather than posts, so that a long run
    /// stays as fast per step as a short one.
    static let mostDelivered = 16
    /// The seed and the length of a run unless the environment gives them.
    static let defaultSeed: UInt64 = 45
    static let defaultSteps = 10_000
    /// The levels a post is given, with the desktop's do-not-disturb letting only `critical` through (time-sensitive
    /// is not allowed for the app).
    static let levels: [NotificationInterruptionLevel] = [.passive, .active, .timeSensitive, .critical]

    /// What a client was told: each delivered notification's label (its body as posted) and thread, oldest first;
    /// those the desktop's do-not-disturb holds back, in the order they are to be shown; whether it is on.
    struct Model {
        var delivered: [(id: String, label: String, thread: String?)] = []
        var held: [(id: String, label: String)] = []
        var doNotDisturb = false

        func members(of thread: String) -> [String] { delivered.filter { $0.thread == thread }.map(\.id) }

        /// The ids the server shows: each one alone, and the newest of each thread.
        var onScreen: Set<String> {
            Set(
                delivered.filter { $0.thread == nil }.map(\.id)
                    + DaemonSimulationTests.threads.compactMap { members(of: $0).last })
        }

        /// What the server shows for `id`, which is on the screen: its label, with its thread's count.
        func shownBody(of id: String) -> String {
            guard let entry = delivered.first(where: { $0.id == id }) else { return "" }
            guard let thread = entry.thread, case let count = members(of: thread).count, count > 1 else {
                return entry.label
            }
            return "\(entry.label)\n\(count) notifications from \(thread)"
        }

        /// Ends `id` as the server's close of it does: the newest of a thread ends the thread.
        mutating func closeOnServer(_ id: String) {
            guard let thread = delivered.first(where: { $0.id == id })?.thread else {
                delivered.removeAll { $0.id == id }
                return
            }
            delivered.removeAll { $0.thread == thread }
        }
    }

    /// How many times each notification's response was delivered, as `Responded` signals say.
    final class Responses: Sendable {
        let counts = Mutex<[String: Int]>([:])

        func count(of id: String) -> Int { counts.withLock { $0[id] ?? 0 } }

        /// Returns once a response for `id` comes after `before` were counted, or throws after a bound.
        func awaitResponse(to id: String, after before: Int, _ what: String) async throws {
            try await withTimeout(.seconds(10), waitingFor: what) {
                while self.count(of: id) == before { try await Task.sleep(for: .microseconds(200)) }
            }
        }
    }

    enum Step: CaseIterable {
        case post, postToThread, replace, withdraw, click, dismiss, switchDoNotDisturb, restartServer, restartDaemon
        case killDaemon
    }

    static func drawStep(_ random: inout SeededGenerator, model: Model) -> Step {
        let roll = Int.random(in: 0..<1_000, using: &random)
        switch roll {
        case ..<450 where model.delivered.count + model.held.count >= mostDelivered: return .withdraw
        case ..<220: return .post
        case ..<450: return .postToThread
        case ..<570: return .replace
        case ..<740: return .withdraw
        case ..<850: return .click
        case ..<960: return .dismiss
        case ..<980: return .switchDoNotDisturb
        case ..<988: return .restartServer
        case ..<994: return .restartDaemon
        default: return .killDaemon
        }
    }

    /// Posts at every level, threads, replacements, withdrawals, clicks, dismissals, the desktop's do-not-disturb,
    /// server restarts, daemon restarts and kills.
    @Test("a seeded run of what clients, the server and the desktop do keeps the daemon's promises")
    func seededRun() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["NB_SIMULATION_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let steps = environment["NB_SIMULATION_STEPS"].flatMap { Int($0) } ?? Self.defaultSteps
        let traces = environment["NB_SIMULATION_TRACE"] != nil
        var random = SeededGenerator(seed: seed)
        var model = Model()
        var done = 0
        var label = 0
        let responses = Responses()
        let began = ContinuousClock.now
        try await withPrivateBus { bus in
            var serverConnection = try await bus.connect()
            var server = NotificationServer()
            let events = server.events()
            try await server.start(
                on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry,
                allowingReplacement: true)
            let run = await outcome {
                while done < steps {
                    // The desktop's switch as the model has it: a daemon that starts holds back from its first post.
                    let desktop = DesktopDoNotDisturbTests.FedSwitch(on: model.doNotDisturb)
                    try await DaemonFixture.run(bus: bus, server: server, events: events, doNotDisturb: desktop) {
                        fixture in
                        let responded = try await fixture.client.signals(
                            matching: DBusMatchRule(
                                sender: BridgeAPI.busName, path: BridgeAPI.objectPath,
                                interface: BridgeAPI.interfaceName,
                                member: BridgeSignal.responded.name))
                        let counting = Task {
                            for await signal in responded {
                                guard case .string(let id)? = signal.arguments.first else { continue }
                                responses.counts.withLock { $0[id, default: 0] += 1 }
                            }
                        }
                        defer { counting.cancel() }
                        // The responses to what the last run's client posted come to the app attached.
                        try await fixture.call(BridgeMethod.attach.name, [.string("Sim"), .vardict([:])])
                        try await Self.awaitSwitch(model.doNotDisturb, fixture, "seed \(seed), step \(done)")
                        // After a restart: what was delivered before is delivered still.
                        try await Self.check(model, fixture, server, seed: seed, step: done)
                        while done < steps {
                            let step = Self.drawStep(&random, model: model)
                            done += 1
                            let context = "seed \(seed), step \(done) (\(step))"
                            if traces {
                                print(
                                    "\(context): \(model.delivered.map { "\($0.id) \($0.label) \($0.thread ?? "-")" }) "
                                        + "held \(model.held.map(\.id)) dnd \(model.doNotDisturb)")
                            }
                            switch step {
                            case .post, .postToThread:
                                var thread = step == .postToThread ? Self.threads.randomElement(using: &random) : nil
                                // While the switch is on, a post is alone: the model does not place held thread posts.
                                if let chosen = thread,
                                    model.doNotDisturb || model.members(of: chosen).count >= Self.longestThread
                                {
                                    thread = nil
                                }
                                let level = Self.levels.randomElement(using: &random)!
                                label += 1
                                let id = try await Self.post("b\(label)", thread: thread, level: level, fixture)
                                if model.doNotDisturb && level != .critical {
                                    model.held.append((id, "b\(label)"))
                                } else {
                                    model.delivered.append((id, "b\(label)", thread))
                                }
                            case .replace:
                                guard !model.doNotDisturb,
                                    let index = model.delivered.indices.randomElement(using: &random)
                                else { continue }
                                label += 1
                                let entry = model.delivered[index]
                                let id = try await Self.post(
                                    "b\(label)", thread: entry.thread, replacing: entry.id, fixture)
                                #expect(id == entry.id, "\(context): a replacement keeps its id")
                                model.delivered[index].label = "b\(label)"
                            case .withdraw:
                                let ids = model.delivered.map(\.id) + model.held.map(\.id)
                                guard let id = ids.randomElement(using: &random) else { continue }
                                try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
                                model.delivered.removeAll { $0.id == id }
                                model.held.removeAll { $0.id == id }
                            case .click, .dismiss:
                                guard let id = model.onScreen.sorted().randomElement(using: &random) else { continue }
                                let shown = try await Self.served(model.shownBody(of: id), server, context)
                                if step == .click {
                                    let before = responses.count(of: id)
                                    try await server.invokeAction(id: shown.id, key: "default")
                                    try await responses.awaitResponse(
                                        to: id, after: before, "\(context): Responded for \(id)")
                                } else {
                                    try await server.dismiss(id: shown.id)
                                }
                                model.closeOnServer(id)
                            case .switchDoNotDisturb:
                                model.doNotDisturb.toggle()
                                desktop.set(on: model.doNotDisturb)
                                try await Self.awaitSwitch(model.doNotDisturb, fixture, context)
                                if !model.doNotDisturb {
                                    // What waited is shown, in its order.
                                    model.delivered += model.held.map { ($0.id, $0.label, nil) }
                                    model.held = []
                                }
                            case .restartServer:
                                // The server goes away, taking what it showed, and a new one takes the name: after it,
                                // or from it (as `dunst --replace` does, the previous one ending a moment later). A
                                // thread post follows at once, while the daemon posts again what was shown.
                                let replaces = Bool.random(using: &random)
                                let previous = (server, serverConnection)
                                if !replaces {
                                    await previous.0.stop()
                                    await previous.1.close()
                                }
                                serverConnection = try await bus.connect()
                                server = NotificationServer()
                                try await server.start(
                                    on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry,
                                    replacingOwner: replaces, allowingReplacement: true)
                                let thread = Self.threads.randomElement(using: &random)!
                                if !model.doNotDisturb, model.members(of: thread).count < Self.longestThread {
                                    label += 1
                                    let id = try await Self.post("b\(label)", thread: thread, fixture)
                                    model.delivered.append((id, "b\(label)", thread))
                                }
                                if replaces {
                                    await previous.0.stop()
                                    await previous.1.close()
                                }
                            case .restartDaemon:
                                return
                            case .killDaemon:
                                fixture.ending.kill()
                                return
                            }
                            try await Self.check(model, fixture, server, seed: seed, step: done)
                        }
                    }
                }
            }
            await server.stop()
            await serverConnection.close()
            try run.get()
        }
        let overDuplicates = responses.counts.withLock { $0.filter { $0.value > 1 } }
        #expect(overDuplicates.isEmpty, "seed \(seed): responses delivered more than once: \(overDuplicates)")
        print("daemon simulation: seed \(seed), \(steps) steps in \(ContinuousClock.now - began)")
    }

    /// Waits until the daemon's `DesktopDoNotDisturb` property says the switch is `on`: what it holds back from then
    /// on is decided.
    static func awaitSwitch(_ on: Bool, _ fixture: DaemonFixture, _ context: String) async throws {
        let wanted = DesktopDoNotDisturbState(isOn: on, source: "dunst")
        try await withTimeout(.seconds(10), waitingFor: "\(context): the daemon to read the switch as \(on)") {
            while try await DesktopDoNotDisturbTests.property(fixture) != wanted {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// Posts a notification labelled `label` (its body), to `thread` when given, at `level` when given, replacing
    /// `replacing` when given.
    static func post(
        _ label: String, thread: String?, level: NotificationInterruptionLevel? = nil, replacing: String? = nil,
        _ fixture: DaemonFixture
    ) async throws -> String {
        var post: [String: DBusValue] = [
            PostKeys.title.name: .string(thread ?? "plain"), PostKeys.body.name: .string(label),
            PostKeys.appName.name: .string("Sim"), PostKeys.defaultAction.name: .string("Open"),
            PostKeys.timeout.name: .int32(0),
        ]
        if let thread {
            post[PostKeys.thread.name] = .string(thread)
            post[PostKeys.summaryArgument.name] = .string(thread)
        }
        if let replacing { post[PostKeys.replaces.name] = .string(replacing) }
        if let level { post[PostKeys.interruptionLevel.name] = .string(level.name) }
        return try await fixture.post(post)
    }

    /// The one notification the server shows with `body`.
    static func served(_ body: String, _ server: NotificationServer, _ context: String) async throws
        -> ServedNotification
    {
        try await withTimeout(.seconds(10), waitingFor: "\(context): the server to show \(body.debugDescription)") {
            while true {
                let matching = await server.shownNotifications.filter { $0.body == body }
                if matching.count == 1 { return matching[0] }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// Checks, within a bound, that the daemon lists what the model holds, on the screen where the model says, and
    /// what waits for the desktop's switch in its order; and that the server shows each notification on the screen
    /// once, with its thread's count, and nothing else.
    static func check(
        _ model: Model, _ fixture: DaemonFixture, _ server: NotificationServer, seed: UInt64, step: Int
    ) async throws {
        let expectedIDs = Set(model.delivered.map(\.id))
        let onScreen = model.onScreen
        let expectedBodies = onScreen.map { model.shownBody(of: $0) }.sorted()
        var listedIDs: Set<String> = []
        var listedOnScreen: Set<String> = []
        var bodies: [String] = []
        let expectedHeld = model.held.map(\.label)
        var heldLabels: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let reply = try await fixture.call(
                BridgeMethod.listDelivered.name, [.vardict([FilterKeys.appName.name: .string("Sim")])])
            guard case .array(_, let values)? = reply.first else {
                throw TestSupportError("ListDelivered gave \(reply)")
            }
            let listed = values.compactMap(ListedNotification.init)
            listedIDs = Set(listed.map(\.id))
            listedOnScreen = Set(listed.filter(\.isOnScreen).map(\.id))
            bodies = await server.shownNotifications.map(\.body).sorted()
            if model.doNotDisturb || !model.held.isEmpty {
                heldLabels = try await held(fixture)
            }
            if listedIDs == expectedIDs, listedOnScreen == onScreen, bodies == expectedBodies,
                heldLabels == expectedHeld
            {
                return
            }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(listedIDs == expectedIDs, "seed \(seed), after step \(step): ListDelivered lists what was kept")
        #expect(listedOnScreen == onScreen, "seed \(seed), after step \(step): the ones on the screen")
        #expect(bodies == expectedBodies, "seed \(seed), after step \(step): the server shows each once")
        #expect(heldLabels == expectedHeld, "seed \(seed), after step \(step): ListPending lists what waits, in order")
        throw TestSupportError("seed \(seed), after step \(step): the daemon and the server differ from the model")
    }

    /// The labels of the notifications `ListPending` lists as held back by the desktop's switch, in order.
    static func held(_ fixture: DaemonFixture) async throws -> [String] {
        let listed = try await fixture.call(
            BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string("Sim")])])
        guard case .array(_, let items)? = listed.first else { return [] }
        return items.compactMap { item -> String? in
            guard let entries = WireEntries(item), entries[ListedKeys.held] == true else { return nil }
            return entries[PostKeys.body]
        }
    }
}
