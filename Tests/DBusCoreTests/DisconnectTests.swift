import DBusCore
import DBusTestSupport
import Testing

/// When a connection ends, by `close()` or because the bus went away, everything waiting on it ends too: streams
/// finish, calls fail with an error, nothing hangs.
@Suite struct DisconnectTests {
    static let rule = DBusMatchRule(interface: "org.example.Gone")

    /// Waits, bounded, for `stream` to finish, and returns how many elements were still delivered first.
    static func finish<Element: Sendable>(_ stream: AsyncStream<Element>, _ what: String) async throws -> Int {
        try await withTimeout(waitingFor: "\(what) to finish") {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
    }

    static func close(_ connection: DBusConnection) async throws {
        try await awaitWithin(waitingFor: "close() to return") { await connection.close() }
    }

    @Test func closingFinishesStreamsAndLaterUseThrowsDisconnected() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let signals = try await connection.signals(matching: Self.rule)
            let events = try await connection.nameEvents()
            let owners = try await connection.nameOwnerChanges(of: "org.example.Watched")

            try await Self.close(connection)
            #expect(!connection.isConnected)
            _ = try await Self.finish(signals, "the signal stream")
            _ = try await Self.finish(events, "the name event stream")
            _ = try await Self.finish(owners, "the owner change stream")

            let failure = try await #require(throws: DBusFailure.self) {
                try await connection.call(
                    destination: MessageBus.name, path: MessageBus.path, interface: MessageBus.name, method: "GetId")
            }
            #expect(failure.name == DBusFailure.Name.disconnected)
            await #expect(throws: DBusFailure.self) { try await connection.signals(matching: Self.rule) }
            await #expect(throws: DBusFailure.self) { try await connection.requestName("org.example.Late") }
            await #expect(throws: DBusFailure.self) {
                try await connection.export([DBusInterface("org.example.Late")], at: "/late")
            }
            #expect(throws: DBusFailure.self) {
                try connection.emit(path: "/late", interface: "org.example.Gone", member: "Late")
            }
            #expect(throws: DBusFailure.self) {
                try connection.send(
                    destination: MessageBus.name, path: MessageBus.path, interface: nil, method: "GetId")
            }
            // Closing again, or waiting for the end, returns at once.
            try await Self.close(connection)
            try await awaitWithin(waitingFor: "a closed connection to report it") {
                await connection.waitUntilDisconnected()
            }
        }
    }

    @Test func closingFailsACallStillWaitingForItsReply() async throws {
        try await withPrivateBus { bus in
            let object = try await TestObject.serve(on: bus)
            let client = try await bus.connect()
            let pending = Task { try await TestObject.call("Hold", from: client, timeout: .seconds(60)) }
            let held = try await object.held.arrivals.first(waitingFor: "the call to reach the object")

            try await Self.close(client)
            let result = try await awaitWithin(waitingFor: "the pending call to fail") { await pending.result }
            let failure = try #require(throws: DBusFailure.self) { try result.get() }
            #expect(failure.name == DBusFailure.Name.disconnected)
            #expect(!held.isAnswered)
        }
    }

    @Test func calleeGoingAwayFailsTheCallWithNoReply() async throws {
        try await withPrivateBus { bus in
            let object = try await TestObject.serve(on: bus)
            let client = try await bus.connect()
            let pending = Task { try await TestObject.call("Hold", from: client, timeout: .seconds(60)) }
            // Held unanswered: only the end of the connection can end the call.
            let held = try await object.held.arrivals.first(waitingFor: "the call to reach the object")

            try await Self.close(object.connection)
            let result = try await awaitWithin(waitingFor: "the pending call to fail") { await pending.result }
            let failure = try #require(throws: DBusFailure.self) { try result.get() }
            #expect(failure.name == DBusFailure.Name.noReply)
            #expect(!held.isAnswered)
        }
    }

    @Test func busGoingAwayDisconnectsEveryConnection() async throws {
        try await withPrivateBus { bus in
            let object = try await TestObject.serve(on: bus)
            let client = try await bus.connect()
            let signals = try await client.signals(matching: Self.rule)
            let pending = Task { try await TestObject.call("Hold", from: client, timeout: .seconds(60)) }
            // Held unanswered: only the end of the connection can end the call.
            let held = try await object.held.arrivals.first(waitingFor: "the call to reach the object")

            bus.stop()
            try await awaitWithin(waitingFor: "the client to notice the bus is gone") {
                await client.waitUntilDisconnected()
            }
            try await awaitWithin(waitingFor: "the object's connection to notice the bus is gone") {
                await object.connection.waitUntilDisconnected()
            }
            #expect(!client.isConnected)
            #expect(!object.connection.isConnected)
            _ = try await Self.finish(signals, "the signal stream")

            let result = try await awaitWithin(waitingFor: "the pending call to fail") { await pending.result }
            let pendingFailure = try #require(throws: DBusFailure.self) { try result.get() }
            #expect(pendingFailure.name == DBusFailure.Name.disconnected)
            #expect(!held.isAnswered)
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Echo", [.string("anyone?")], from: client)
            }
            #expect(failure.name == DBusFailure.Name.disconnected)
        }
    }

    @Test func connectingToABusThatIsNotThereFails() async throws {
        let address = try await withPrivateBus { bus in bus.address }
        let failure = try await #require(throws: DBusFailure.self) {
            try await DBusConnection.connect(to: .address(address))
        }
        #expect(!failure.message.isEmpty)
    }
}
