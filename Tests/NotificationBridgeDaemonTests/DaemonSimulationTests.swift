import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Synchronization
import Testing

/// A seeded random run of the daemon, in this process on a private bus, against the scripted server as dunst: posts,
/// thread posts, replacements, withdrawals, clicks and dismissals on the server, and restarts of the daemon on the
/// same state, checked after every step against a model of what a client was told. A failure names its seed and
/// step; `NB_SIMULATION_SEED=<seed>` replays its choices (the daemon's own timing may still differ),
/// `NB_SIMULATION_STEPS=<n>` sets the length (each step is a few round trips on the bus: about 5 ms on an idle
/// machine), and `NB_SIMULATION_TRACE=1` prints each step with the model before it.
@Suite("Daemon simulation")
struct DaemonSimulationTests {
    static let threads = ["ann", "bob"]
    /// A thread is kept well under ``ThreadBook/maximumMembers``: the model does not follow what a long thread lets go.
    static let longestThread = 12
    /// The most notifications delivered at once: beyond it the run withdraws rather than posts, so that a long run
    /// stays as fast per step as a short one.
    static let mostDelivered = 24
    /// The seed and the length of a run unless the environment gives them.
    static let defaultSeed: UInt64 = 45
    static let defaultSteps = 1_000

    /// What a client was told: each delivered notification's label (its body as posted) and thread, oldest first.
    struct Model {
        var delivered: [(id: String, label: String, thread: String?)] = []

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
    }

    enum Step: CaseIterable {
        case post, postToThread, replace, withdraw, click, dismiss, restartDaemon
    }

    static func drawStep(_ random: inout SeededGenerator, model: Model) -> Step {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case ..<48 where model.delivered.count >= mostDelivered: return .withdraw
        case ..<22: return .post
        case ..<48: return .postToThread
        case ..<60: return .replace
        case ..<78: return .withdraw
        case ..<88: return .click
        case ..<99: return .dismiss
        default: return .restartDaemon
        }
    }

    @Test(
        "a seeded run of posts, threads, replacements, withdrawals, clicks, dismissals and restarts keeps its promises")
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
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            let run = await outcome {
                while done < steps {
                    try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
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
                        // After a restart: what was delivered before is delivered still.
                        try await Self.check(model, fixture, server, seed: seed, step: done)
                        while done < steps {
                            let step = Self.drawStep(&random, model: model)
                            done += 1
                            let context = "seed \(seed), step \(done) (\(step))"
                            if traces {
                                print(
                                    "\(context): \(model.delivered.map { "\($0.id) \($0.label) \($0.thread ?? "-")" })")
                            }
                            switch step {
                            case .post, .postToThread:
                                var thread = step == .postToThread ? Self.threads.randomElement(using: &random) : nil
                                if let chosen = thread, model.members(of: chosen).count >= Self.longestThread {
                                    thread = nil
                                }
                                label += 1
                                let id = try await Self.post("b\(label)", thread: thread, fixture)
                                model.delivered.append((id, "b\(label)", thread))
                            case .replace:
                                guard let index = model.delivered.indices.randomElement(using: &random) else {
                                    continue
                                }
                                label += 1
                                let entry = model.delivered[index]
                                let id = try await Self.post(
                                    "b\(label)", thread: entry.thread, replacing: entry.id, fixture)
                                #expect(id == entry.id, "\(context): a replacement keeps its id")
                                model.delivered[index].label = "b\(label)"
                            case .withdraw:
                                guard let entry = model.delivered.randomElement(using: &random) else { continue }
                                try await fixture.call(BridgeMethod.withdraw.name, [.string(entry.id)])
                                model.delivered.removeAll { $0.id == entry.id }
                            case .click, .dismiss:
                                guard let id = model.onScreen.sorted().randomElement(using: &random) else { continue }
                                let shown = try await Self.served(model.shownBody(of: id), server, context)
                                if step == .click {
                                    let before = responses.count(of: id)
                                    try await server.invokeAction(id: shown.id, key: "default")
                                    try await withTimeout(.seconds(10), waitingFor: "\(context): Responded for \(id)") {
                                        while responses.count(of: id) == before {
                                            try await Task.sleep(for: .milliseconds(2))
                                        }
                                    }
                                } else {
                                    try await server.dismiss(id: shown.id)
                                }
                                model.closeOnServer(id)
                            case .restartDaemon:
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

    /// Posts a notification labelled `label` (its body), to `thread` when given, replacing `replacing` when given.
    static func post(_ label: String, thread: String?, replacing: String? = nil, _ fixture: DaemonFixture)
        async throws -> String
    {
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
    /// that the server shows each notification on the screen once, with its thread's count, and nothing else.
    static func check(
        _ model: Model, _ fixture: DaemonFixture, _ server: NotificationServer, seed: UInt64, step: Int
    ) async throws {
        let expectedIDs = Set(model.delivered.map(\.id))
        let onScreen = model.onScreen
        let expectedBodies = onScreen.map { model.shownBody(of: $0) }.sorted()
        var listedIDs: Set<String> = []
        var listedOnScreen: Set<String> = []
        var bodies: [String] = []
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
            if listedIDs == expectedIDs, listedOnScreen == onScreen, bodies == expectedBodies { return }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(listedIDs == expectedIDs, "seed \(seed), after step \(step): ListDelivered lists what was kept")
        #expect(listedOnScreen == onScreen, "seed \(seed), after step \(step): the ones on the screen")
        #expect(bodies == expectedBodies, "seed \(seed), after step \(step): the server shows each once")
        throw TestSupportError("seed \(seed), after step \(step): the daemon and the server differ from the model")
    }
}
