import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Typed text goes to one place: the poster while it is connected; once it has left, one waiting call.
@Suite("Typed text routing")
struct TypedTextRoutingTests {
    @Test("while the poster is connected, another connection's WaitForResponse gets the response without the text")
    func textStaysWithTheConnectedPoster() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let poster = try await fixture.bus.connect()
            let posterSignals = try await poster.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    member: BridgeSignal.responded.name))
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Ann"), PostKeys.appName.name: .string("Mail"),
                    PostKeys.actions.name: ActionList.textInput(id: "reply"),
                ], from: poster)
            let shown = try await fixture.nextNotification()

            // Another client learns the id the way any program of the user can, and waits for it.
            let other = try await fixture.bus.connect()
            let listed = try await fixture.call(
                BridgeMethod.listDelivered.name, [.vardict([FilterKeys.appName.name: .string("Mail")])], from: other)
            #expect(listed.first.map { "\($0)" }?.contains(id) == true, "\(listed)")
            async let othersWait = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: other)
            async let postersWait = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: poster)
            // Calls of one connection are handled in order: once these are answered, both waits are registered.
            try await fixture.call(BridgeMethod.listCategories.name, from: other)
            try await fixture.call(BridgeMethod.listCategories.name, from: poster)

            try await fixture.scripted.reply(id: shown.id, text: "private words")
            let responded = try await posterSignals.first(waitingFor: BridgeSignal.responded.name)
            #expect(
                responded.arguments[2].stringKeyedEntries?[ResponseKeys.text.name]
                    == .variant(
                        .string(
                            "private words")))
            let posters = try await postersWait
            #expect(posters.last?.stringKeyedEntries?[ResponseKeys.text.name] == .variant(.string("private words")))
            let others = try await othersWait
            #expect(others.first == .string("reply"), "the other client still learns which action was chosen")
            let entries = try #require(others.last?.stringKeyedEntries)
            #expect(entries[ResponseKeys.id.name] == .variant(.string(id)))
            #expect(entries[ResponseKeys.text.name] == nil, "the typed text reached a second client: \(entries)")
            await other.close()
            await poster.close()
        }
    }

    @Test("a response kept while the poster is connected gives its text to the poster's call only")
    func keptTextStaysWithThePoster() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let poster = try await fixture.bus.connect()
            let id = try await fixture.post(
                [PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.textInput(id: "reply")],
                from: poster)
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.reply(id: shown.id, text: "kept words")
            try await fixture.nextClosure(of: shown.id)

            let other = try await fixture.bus.connect()
            let reply = try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: other)
            #expect(reply.first == .string("reply"))
            #expect(reply.last?.stringKeyedEntries?[ResponseKeys.text.name] == nil, "\(reply)")
            await other.close()
            await poster.close()
        }
    }

    @Test("once the poster has left, the text goes to one waiting call and no other")
    func textToOneCallOnceThePosterLeft() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let poster = try await fixture.bus.connect()
            let id = try await fixture.post(
                [PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.textInput(id: "reply")],
                from: poster)
            let shown = try await fixture.nextNotification()
            await poster.close()

            let first = try await fixture.bus.connect()
            let second = try await fixture.bus.connect()
            async let firstWait = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: first)
            try await fixture.call(BridgeMethod.listCategories.name, from: first)
            async let secondWait = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: second)
            try await fixture.call(BridgeMethod.listCategories.name, from: second)

            try await fixture.scripted.reply(id: shown.id, text: "one place")
            let texts = [try await firstWait, try await secondWait].map {
                $0.last?.stringKeyedEntries?[ResponseKeys.text.name]
            }
            #expect(texts == [.variant(.string("one place")), nil], "\(texts)")
            await first.close()
            await second.close()
        }
    }
}
