import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `answerable` in `ListHistory` says what `Act` then does: one check decides both.
extension HistoryTests {
    @Test(
        "a missed notification whose poster left is answerable only once an app is attached; Act agrees each time")
    func answerableAgreesWithAct() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            let poster = try await fixture.bus.connect()
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Lunch?"), PostKeys.appName.name: .string("Chat"),
                    PostKeys.actions.name: ActionList.plain(id: "yes"),
                ], from: poster)
            let shown = try await fixture.nextNotification()
            await poster.close()
            #expect(try await fixture.scripted.expire(id: shown.id))
            _ = try await Self.ended(id, app: "Chat", in: fixture)
            // The poster's leaving is seen by the bus at once; the listing asks the bus.
            let missed = try await withTimeout(waitingFor: "the entry listed as not answerable") {
                while true {
                    let entry = try await Self.ended(id, app: "Chat", in: fixture)
                    if !entry.isAnswerable { return entry }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(missed.ending == .expired)
            let refused = await outcome { try await Self.act(fixture, id, "yes") }
            #expect(refused.bridgeError == BridgeError.notSupported, "listed not answerable, Act refuses it")
            let message = refused.failureMessage ?? ""
            #expect(message.contains(BridgeMethod.attach.name), "it says how to make it answerable: \(message)")

            let app = try await fixture.bus.connect()
            defer { Task { await app.close() } }
            try await fixture.call(BridgeMethod.attach.name, [.string("Chat"), .vardict([:])], from: app)
            #expect(try await Self.ended(id, app: "Chat", in: fixture).isAnswerable, "an app is there to take it")
            try await Self.act(fixture, id, "yes")
            #expect(!(try await Self.ended(id, app: "Chat", in: fixture).isAnswerable), "answered once")
        }
    }
}
