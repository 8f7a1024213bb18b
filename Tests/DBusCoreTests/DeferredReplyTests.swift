import DBusCore
import DBusTestSupport
import Testing

/// A deferred method keeps its call and answers it later, from anywhere; the object serves other calls meanwhile.
@Suite struct DeferredReplyTests {
    @Test func callAnsweredSecondsLaterFromAnotherTaskReachesTheCaller() async throws {
        try await withTestObject { _, object, client in
            let start = ContinuousClock.now
            async let answer = TestObject.call("Hold", from: client, timeout: .seconds(120))
            let held = try await object.held.arrivals.first(waitingFor: "the deferred call")

            // Other calls are served while the deferred one waits.
            for index in 0..<20 {
                let echo = try await TestObject.call("Echo", [.string("call \(index)")], from: client)
                #expect(echo == [.string("call \(index)")])
            }
            #expect(!held.isAnswered)
            let answering = Task {
                // Stands for slow work, such as waiting for a user: the delay is the point of the test.
                try await Task.sleep(for: .seconds(2))
                held.reply(with: "worth the wait")
            }

            #expect(try await answer == [.string("worth the wait")])
            #expect(ContinuousClock.now - start >= .seconds(2))
            try await answering.value
        }
    }

    @Test func callsAnsweredInAnotherOrderEachReachTheirCaller() async throws {
        try await withTestObject { bus, object, _ in
            var callers: [DBusConnection] = []
            for _ in 0..<3 { callers.append(try await bus.connect()) }
            try await withThrowingTaskGroup(of: (String, String).self) { group in
                for caller in callers {
                    group.addTask {
                        let reply = try await TestObject.call("Hold", from: caller, timeout: .seconds(120))
                        return (caller.uniqueName, try reply.decode(String.self))
                    }
                }
                let held = try await object.held.arrivals.collect(3, waitingFor: "deferred calls")
                for call in held.reversed() {
                    call.reply(with: "for \(call.sender)")
                }
                for try await (caller, answer) in group {
                    #expect(answer == "for \(caller)")
                }
            }
        }
    }

    @Test func deferredFailureReachesTheCaller() async throws {
        try await withTestObject { _, object, client in
            let answer = Task { try await TestObject.call("Hold", from: client) }
            let held = try await object.held.arrivals.first(waitingFor: "the deferred call")
            held.fail(name: "org.example.Error.Later", message: "could not finish")
            held.reply(with: "ignored: the call is already answered")
            #expect(held.isAnswered)

            let failure = try await #require(throws: DBusFailure.self) { try await answer.value }
            #expect(failure.name == "org.example.Error.Later")
            #expect(failure.message == "could not finish")
        }
    }

    @Test func deferredReplyOfTheWrongTypeIsAnsweredWithFailed() async throws {
        try await withTestObject { _, object, client in
            let answer = Task { try await TestObject.call("Hold", from: client) }
            let held = try await object.held.arrivals.first(waitingFor: "the deferred call")
            held.reply([.uint32(1)])

            let failure = try await #require(throws: DBusFailure.self) { try await answer.value }
            #expect(failure.name == DBusFailure.Name.failed)
            #expect(failure.message.contains("'u'"))
            #expect(failure.message.contains("'s'"))
        }
    }

    @Test func deferredCallDroppedWithoutAnAnswerIsAnsweredWithFailed() async throws {
        try await withTestObject { _, object, client in
            let forgetful = DBusInterface(
                "org.example.Forgetful", methods: [.deferred("Forget", outputs: [.init("never", "s")]) { _ in }])
            try await object.connection.export([forgetful], at: "/org/example/Forgetful")
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call(
                    "Forget", from: client, interface: "org.example.Forgetful", path: "/org/example/Forgetful")
            }
            #expect(failure.name == DBusFailure.Name.failed)
            #expect(failure.message.contains("without an answer"))
        }
    }
}
