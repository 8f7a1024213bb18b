import DBusCore
import DBusTestSupport
import Testing

/// Method calls between two connections on a private bus: replies, error replies, timeouts, cancellation.
@Suite struct CallTests {
    @Test func replyCarriesTheReturnedValues() async throws {
        try await withTestObject { _, _, client in

            let echo = try await TestObject.call("Echo", [.string("hello, wörld")], from: client)
            #expect(try echo.decode(String.self) == "hello, wörld")

            let basics: [DBusValue] = [
                .byte(7), .boolean(true), .int16(-16), .uint16(16), .int32(.min), .uint32(.max), .int64(.min),
                .uint64(.max), .double(-0.5), .string("s"), .objectPath("/o"), .signature("a{sv}"),
            ]
            #expect(try await TestObject.call("Basics", basics, from: client) == basics)

            let containers: [DBusValue] = [
                .strings([]), .vardict(["k": .strings(["v"])]), .structure([.int32(1), .string("one")]),
                .variant(.variant(.uint16(2))), .array(element: "ai", [.array(element: "i", [])]),
            ]
            #expect(try await TestObject.call("Containers", containers, from: client) == containers)
        }
    }

    @Test("a reply says which connection answered, also once the called name has moved to another")
    func replySaysWhoAnswered() async throws {
        try await withTestObject { bus, object, client in
            func echo() async throws -> DBusReply {
                try await client.callForReply(
                    destination: TestObject.busName, path: TestObject.path, interface: TestObject.interfaceName,
                    method: "Echo", arguments: [.string("who")])
            }
            let first = try await echo()
            #expect(first.values == [.string("who")])
            #expect(first.sender == object.connection.uniqueName)

            let successor = try await TestObject.serve(on: bus)
            #expect(try await object.connection.releaseName(TestObject.busName) == .released)
            #expect(try await echo().sender == successor.connection.uniqueName, "the queued owner answers now")
            await successor.connection.close()
        }
    }

    @Test func typedArgumentsCanBePassedDirectly() async throws {
        try await withTestObject { _, _, client in
            let reply = try await client.call(
                destination: TestObject.busName, path: TestObject.path, interface: TestObject.interfaceName,
                method: "Echo", with: "typed")
            #expect(try reply.decode(String.self) == "typed")
        }
    }

    @Test func errorReplyCarriesTheErrorNameAndMessage() async throws {
        try await withTestObject { _, _, client in
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call(
                    "Fail", [.string("org.example.Error.Custom"), .string("it went wrong: 'é'")], from: client)
            }
            #expect(failure.name == "org.example.Error.Custom")
            #expect(failure.message == "it went wrong: 'é'")
        }
    }

    @Test func handlerThrowingAnotherErrorAnswersFailed() async throws {
        try await withTestObject { _, _, client in
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Crash", from: client)
            }
            #expect(failure.name == DBusFailure.Name.failed)
            #expect(failure.message.contains("something unexpected happened"))
        }
    }

    @Test func handlerFailingWithAnInvalidErrorNameAnswersFailed() async throws {
        try await withTestObject { _, _, client in
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Fail", [.string("not an error name"), .string("text")], from: client)
            }
            #expect(failure.name == DBusFailure.Name.failed)
            #expect(failure.message == "text")
        }
    }

    @Test func callWithoutAnswerTimesOutWithNoReply() async throws {
        try await withTestObject { _, object, client in
            let start = ContinuousClock.now
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Hold", from: client, timeout: .milliseconds(300))
            }
            let elapsed = ContinuousClock.now - start
            #expect(failure.name == DBusFailure.Name.noReply)
            #expect(elapsed >= .milliseconds(290))
            #expect(elapsed < .seconds(5), "the timeout took \(elapsed)")
            // The call did reach the object, which simply never answered.
            let held = try await object.held.arrivals.first(waitingFor: "the held call")
            #expect(!held.isAnswered)
        }
    }

    @Test func cancellingTheTaskEndsAPendingCall() async throws {
        try await withTestObject { _, object, client in
            let pending = Task { try await TestObject.call("Hold", from: client, timeout: .seconds(60)) }
            let held = try await object.held.arrivals.first(waitingFor: "the call to reach the object")

            pending.cancel()
            let result = try await awaitWithin(waitingFor: "the cancelled call to end") { await pending.result }
            #expect(throws: CancellationError.self) { try result.get() }

            // Answering after the caller gave up is harmless, and the connection keeps working.
            held.reply(with: "too late")
            #expect(try await TestObject.call("Echo", [.string("still here")], from: client) == [.string("still here")])
        }
    }

    @Test func callFromAnAlreadyCancelledTaskIsNotSent() async throws {
        try await withTestObject { bus, object, client in
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await TestObject.call("Hold", from: client)
            }
            let result = try await awaitWithin(waitingFor: "the cancelled call to end") { await cancelled.result }
            #expect(throws: CancellationError.self) { try result.get() }

            // Had the call been sent, the bus would have passed it on before answering this round trip, and it
            // would reach the object before the call another connection sends next.
            try await client.flush()
            let other = try await bus.connect()
            try other.send(
                destination: TestObject.busName, path: TestObject.path, interface: TestObject.interfaceName,
                method: "Hold")
            let first = try await object.held.arrivals.first(waitingFor: "the call of the other connection")
            #expect(first.sender == other.uniqueName)
        }
    }

    @Test(arguments: ["org.example.Missing", ":1.9999"])
    func callToANameNobodyOwnsGivesServiceUnknown(_ destination: String) async throws {
        try await withPrivateBus { bus in
            let client = try await bus.connect()
            let failure = try await #require(throws: DBusFailure.self) {
                try await client.call(
                    destination: destination, path: "/org/example", interface: "org.example.Any", method: "Do")
            }
            #expect(failure.name == DBusFailure.Name.serviceUnknown)
            #expect(failure.message.contains(destination))
        }
    }

    @Test func invalidArgumentsAreRefusedBeforeSending() async throws {
        try await withTestObject { _, _, client in
            let refusals: [@Sendable () async throws -> Void] = [
                { _ = try await TestObject.call("Echo", [.string("nul\0inside")], from: client) },
                { _ = try await TestObject.call("Echo", [.array(element: "s", [.int32(1)])], from: client) },
                { _ = try await client.call(destination: "not a name", path: "/", interface: nil, method: "Echo") },
                { _ = try await client.call(destination: nil, path: "/", interface: "bad", method: "Echo") },
                { _ = try await client.call(destination: nil, path: "/", interface: nil, method: "no.dots") },
            ]
            for refusal in refusals {
                let failure = try await #require(throws: DBusFailure.self) { try await refusal() }
                #expect(failure.name == DBusFailure.Name.invalidArgs)
            }
            #expect(try await TestObject.call("Echo", [.string("ok")], from: client) == [.string("ok")])
        }
    }

    @Test func sendDeliversACallThatExpectsNoReply() async throws {
        try await withTestObject { _, object, client in
            try client.send(
                destination: TestObject.busName, path: TestObject.path, interface: TestObject.interfaceName,
                method: "Hold")
            let held = try await object.held.arrivals.first(waitingFor: "the call sent without a reply")
            #expect(held.member == "Hold")
            #expect(held.sender == client.uniqueName)
            #expect(throws: DBusFailure.self) {
                try client.send(destination: nil, path: "/", interface: nil, method: "Hold", arguments: [.string("\0")])
            }
        }
    }
}
