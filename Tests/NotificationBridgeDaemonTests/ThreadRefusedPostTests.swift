import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// A new message of a thread that the server refuses, on a server that shows one notification per thread (dunst): the
/// earlier message the server still shows is the thread's notification on the screen, as before the refused post.
@Suite("A thread's post the server refuses")
struct ThreadRefusedPostTests {
    /// Posts message `number` of Ann's conversation from `client`; returns its id.
    private static func postMessage(_ number: Int, _ fixture: DaemonFixture, from client: DBusConnection)
        async throws -> String
    {
        try await fixture.post(
            [
                PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Message \(number)"),
                PostKeys.appName.name: .string("Chat"), PostKeys.thread.name: .string("ann"),
                PostKeys.summaryArgument.name: .string("Ann"), PostKeys.category.name: .string(ThreadTests.chat),
            ], from: client)
    }

    /// What `ListDelivered` gives `client`, by id.
    private static func delivered(_ fixture: DaemonFixture, to client: DBusConnection) async throws
        -> [String: ListedNotification]
    {
        let reply = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])], from: client)
        guard case .array(_, let values)? = reply.first else { throw TestSupportError("ListDelivered gave \(reply)") }
        return Dictionary(uniqueKeysWithValues: values.compactMap(ListedNotification.init).map { ($0.id, $0) })
    }

    @Test("the one it was to replace goes on showing: listed so across a restart, and the next post takes its place")
    func displacedOneGoesOnShowing() async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            // The app's connection outlives the daemon's restart: what it posted is listed to it.
            let client = try await bus.connect()
            let result = await outcome {
                var ids: [String] = []
                try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
                    try await ThreadTests.registerChat(fixture)
                    for number in 1...2 { ids.append(try await Self.postMessage(number, fixture, from: client)) }
                    _ = try await ThreadTests.shown(fixture, body: "Message 2\n2 new messages from Ann")

                    let refusal = DBusFailure(
                        name: "org.freedesktop.Notifications.Error.ExcessNotificationGeneration",
                        message: "too many notifications")
                    await server.setNotifyAnswer(.refusing(refusal))
                    let refused = await outcome { try await Self.postMessage(3, fixture, from: client) }
                    #expect(refused.bridgeError == BridgeError.serverError, "the poster learns the server refused it")
                    #expect(refused.failureMessage?.contains("too many notifications") == true)
                    await server.setNotifyAnswer(.immediately)

                    let listed = try await Self.delivered(fixture, to: client)
                    #expect(Set(listed.keys) == Set(ids), "the refused one is not listed")
                    #expect(listed[ids[1]]?.isOnScreen == true, "the one the server still shows is listed as shown")
                    #expect(listed[ids[0]]?.isOnScreen == false)
                }

                // The daemon restarted: the one shown is still the thread's notification on the screen, with the
                // summary it had.
                try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
                    let listed = try await Self.delivered(fixture, to: client)
                    #expect(Set(listed.keys) == Set(ids), "both messages kept across the restart")
                    #expect(listed[ids[1]]?.isOnScreen == true, "still listed as shown after the restart")
                    let shownAgain = try await ThreadTests.shown(fixture, body: "Message 2\n2 new messages from Ann")

                    _ = try await Self.postMessage(4, fixture, from: client)
                    let shown = try await ThreadTests.shown(fixture, body: "Message 4\n3 new messages from Ann")
                    #expect(shown.id == shownAgain.id, "in the place of the one shown, not beside it")
                }
            }
            await client.close()
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }
}
