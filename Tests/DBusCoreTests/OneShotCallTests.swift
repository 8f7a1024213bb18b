import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// `DBusConnection.callOnce`: one call on a connection of the calling thread's own, as a short-lived program makes it.
@Suite("a one-shot call on the caller's thread")
struct OneShotCallTests {
    /// Calls the test object at `bus` once, from a thread of its own: the call blocks its thread, which must not be
    /// one of the pool's, where the object's own work and the other tests run.
    static func call(
        _ method: String, _ arguments: [DBusValue], on bus: PrivateBus
    ) async -> Result<[DBusValue], DBusConnection.OneShotFailure> {
        let address = bus.address
        return await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(DBusConnection.OneShotFailure) in
                        try DBusConnection.callOnce(
                            on: .address(address), destination: TestObject.busName, path: TestObject.path,
                            interface: TestObject.interfaceName, method: method, arguments: arguments,
                            timeout: .seconds(20))
                    })
            }.start()
        }
    }

    @Test("the reply's values come back as the object sent them")
    func reply() async throws {
        try await withTestObject { bus, _, _ in
            let basics: [DBusValue] = [
                .byte(7), .boolean(true), .int16(-16), .uint16(16), .int32(.min), .uint32(.max), .int64(.min),
                .uint64(.max), .double(-0.5), .string("s"), .objectPath("/o"), .signature("a{sv}"),
            ]
            let echoed = try await Self.call("Basics", basics, on: bus).get()
            #expect(echoed == basics)
            let text = try await Self.call("Echo", [.string("hello, wörld")], on: bus).get()
            #expect(text == [.string("hello, wörld")])
        }
    }

    @Test("an error reply is a failed call with the error's name and message")
    func errorReply() async throws {
        try await withTestObject { bus, _, _ in
            let result = await Self.call(
                "Fail", [.string("org.example.Error.Custom"), .string("it went wrong: 'é'")], on: bus)
            guard case .failure(.failed(let failure)) = result else {
                Issue.record("not a failed call: \(result)")
                return
            }
            #expect(failure.name == "org.example.Error.Custom")
            #expect(failure.message == "it went wrong: 'é'")
        }
    }

    @Test("a bus that is not there cannot be connected to; a bad member name fails before connecting")
    func badBusAndName() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("nb-no-bus-\(UUID().uuidString)")
        let unreachable = #expect(throws: DBusConnection.OneShotFailure.self) {
            try DBusConnection.callOnce(
                on: .address("unix:path=\(missing.path)"), destination: "org.example.Nobody", path: "/",
                interface: "org.example.Nobody", method: "Ping")
        }
        guard case .cannotConnect(let failure)? = unreachable else {
            Issue.record("not a connection failure: \(String(describing: unreachable))")
            return
        }
        #expect(failure.message.contains(missing.path), "\(failure.message)")

        let badName = #expect(throws: DBusConnection.OneShotFailure.self) {
            try DBusConnection.callOnce(
                on: .address("unix:path=\(missing.path)"), destination: "org.example.Nobody", path: "/",
                interface: "org.example.Nobody", method: "not a member")
        }
        guard case .failed(let refusal)? = badName else {
            Issue.record("not a refused call: \(String(describing: badName))")
            return
        }
        #expect(refusal.name == DBusFailure.Name.invalidArgs)
    }
}
