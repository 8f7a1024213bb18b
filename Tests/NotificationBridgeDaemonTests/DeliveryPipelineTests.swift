import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// Every way to the server passes the same stages: for each origin, the notification the server receives carries
/// the snooze buttons the settings stage adds and the summary line the thread stage adds, and the daemon's log shows
/// it passed validation, settings, the do-not-disturb gate, thread placement and the session, in that order.
@Suite("One delivery path")
struct DeliveryPipelineTests {
    static let category = "org.example.reminder"

    /// The stages every delivery passes, as the log names them.
    static let allStages = Delivery.Stage.allCases.map(\.name).joined(separator: ",")

    /// Registers a category that offers a 10-minute snooze and words its thread's summary.
    static func register(_ fixture: DaemonFixture) async throws {
        let options: [String: DBusValue] = [
            CategoryOptionKeys.snooze.name: .array(element: "i", [.int32(600)]),
            CategoryOptionKeys.summaryFormat.name: .string("%u new messages from %@"),
        ]
        let done = DBusValue.vardict([
            ActionKeys.id.name: .string("done"), ActionKeys.title.name: .string("Done"),
            ActionKeys.activation.name: .string("background"),
        ])
        try await fixture.call(
            BridgeMethod.registerCategory.name,
            [.string(category), .array(element: "a{sv}", [done]), .vardict(options)])
    }

    /// Message `number` of Ann's thread, of the category above.
    static func message(_ number: Int, _ extra: [String: DBusValue] = [:]) -> [String: DBusValue] {
        [
            PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Message \(number)"),
            PostKeys.appName.name: .string("Chat"), PostKeys.thread.name: .string("ann"),
            PostKeys.summaryArgument.name: .string("Ann"), PostKeys.category.name: .string(category),
            PostKeys.timeout.name: .int32(0),
        ].merging(extra) { $1 }
    }

    /// The next notification the server receives, new or in place of another, whose body starts with `body`.
    static func next(_ fixture: DaemonFixture, body: String) async throws -> ServedNotification {
        let events = fixture.events
        return try await withTimeout(waitingFor: "the server to receive \(body.debugDescription)") {
            for await event in events {
                switch event {
                case .notified(let served), .replaced(_, let served):
                    if served.body.hasPrefix(body) { return served }
                default:
                    continue
                }
            }
            throw TestSupportError("the server stopped")
        }
    }

    /// The origins the log says passed every stage, in order.
    static func originsThroughEveryStage(_ log: RecordingLogHandler.Entries) -> Set<String> {
        var origins: Set<String> = []
        for (_, text) in log.all where text.hasPrefix("delivering ") {
            guard let origin = value(of: "delivery.origin", in: text),
                value(of: "delivery.stages", in: text) == allStages
            else { continue }
            origins.insert(origin)
        }
        return origins
    }

    /// The value of metadata `key` in a logged entry's text.
    static func value(of key: String, in text: String) -> String? {
        guard let range = text.range(of: "\"\(key)\": ") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == "\"" }
        return String(rest.prefix { $0 != "\"" && $0 != "]" && $0 != " " }).trimmingCharacters(in: [","])
    }

    /// Calls `method` until it succeeds (what it acts on may not be there yet), within a bound.
    static func callUntilAnswered(_ fixture: DaemonFixture, _ method: BridgeMethod, _ id: String, from: DBusConnection?)
        async throws
    {
        try await withTimeout(waitingFor: "\(method.name) of \(id) to succeed") {
            while true {
                do {
                    try await fixture.call(method.name, [.string(id)], from: from)
                    return
                } catch {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    @Test(
        "each origin reaches the server shaped by every stage: snooze buttons, thread summary, gate consulted",
        arguments: Delivery.Origin.allCases)
    func everyStageShapesEveryOrigin(_ origin: Delivery.Origin) async throws {
        let log = RecordingLogHandler.Entries()
        let desktop = DesktopDoNotDisturbTests.FedSwitch(on: origin == .release)
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                // What the server receives from the delivery of `origin`, and what its thread's summary should say.
                var expectedSummary: String? = "2 new messages from Ann"
                var served: ServedNotification?
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events, doNotDisturb: desktop,
                    log: origin == .restore ? nil : log
                ) { fixture in
                    try await Self.register(fixture)
                    switch origin {
                    case .post, .restore:
                        _ = try await fixture.post(Self.message(1))
                        _ = try await fixture.post(Self.message(2))
                        served = try await Self.next(fixture, body: "Message 2")
                    case .firing:
                        _ = try await fixture.post(Self.message(1))
                        _ = try await fixture.post(Self.message(2, [PostKeys.delay.name: .double(0.2)]))
                        served = try await Self.next(fixture, body: "Message 2")
                    case .release:
                        try await DesktopDoNotDisturbTests.awaitSwitchOn(fixture)
                        _ = try await fixture.post(Self.message(1))
                        _ = try await fixture.post(Self.message(2))
                        desktop.set(on: false)
                        served = try await Self.next(fixture, body: "Message 2")
                    case .present:
                        let app = try await fixture.bus.connect()
                        try await fixture.call(
                            BridgeMethod.attach.name,
                            [.string("Chat"), .vardict([AttachOptionKeys.foreground.name: .boolean(true)])], from: app)
                        _ = try await fixture.post(Self.message(1))
                        let id = try await fixture.post(Self.message(2, [PostKeys.delay.name: .double(0.2)]), from: app)
                        try await Self.callUntilAnswered(fixture, .present, id, from: app)
                        served = try await Self.next(fixture, body: "Message 2")
                        await app.close()
                    case .presentAgain:
                        let id = try await fixture.post(Self.message(1))
                        let shown = try await Self.next(fixture, body: "Message 1")
                        _ = try await fixture.scripted.expire(id: shown.id)
                        try await Self.callUntilAnswered(fixture, .present, id, from: nil)
                        served = try await Self.next(fixture, body: "Message 1")
                        expectedSummary = nil
                    case .broughtBack:
                        _ = try await fixture.post(Self.message(1))
                        let second = try await fixture.post(Self.message(2))
                        _ = try await Self.next(fixture, body: "Message 2")
                        try await fixture.call(BridgeMethod.withdraw.name, [.string(second)])
                        served = try await Self.next(fixture, body: "Message 1")
                        expectedSummary = nil
                    case .refresh:
                        _ = try await fixture.post(Self.message(1))
                        let second = try await fixture.post(Self.message(2))
                        _ = try await fixture.post(Self.message(3))
                        _ = try await Self.next(fixture, body: "Message 3")
                        try await fixture.call(BridgeMethod.withdraw.name, [.string(second)])
                        served = try await Self.next(fixture, body: "Message 3")
                    }
                }
                if origin == .restore {
                    // The daemon starts again while the server still shows the thread: it shows it again, in place.
                    try await DaemonFixture.run(bus: bus, server: server, events: events, log: log) { fixture in
                        served = try await Self.next(fixture, body: "Message 2")
                    }
                }
                let keys = served?.actions.map(\.key) ?? []
                #expect(keys.contains("snooze:600"), "the settings stage offered the snooze button: \(keys)")
                if let expectedSummary {
                    #expect(
                        served?.body.hasSuffix("\n" + expectedSummary) == true,
                        "the thread stage added the summary: \(served?.body ?? "nothing served")")
                }
                let delivering = log.all.map(\.1).filter { $0.hasPrefix("delivering") }.joined(separator: "\n")
                #expect(
                    Self.originsThroughEveryStage(log).contains(origin.rawValue),
                    "the log shows \(origin.rawValue) passed \(Self.allStages): \(delivering)")
            }
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }
}
