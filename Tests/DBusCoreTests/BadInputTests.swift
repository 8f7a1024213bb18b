import DBusCore
import DBusTestSupport
import Testing

/// Calls an exported object cannot serve get the error the specification names, with a message that says what was
/// wrong, and the object goes on serving.
@Suite struct BadInputTests {
    struct BadCall: Sendable, CustomStringConvertible {
        let description: String
        var path: DBusObjectPath = TestObject.path
        var interface: String? = TestObject.interfaceName
        let method: String
        var arguments: [DBusValue] = []
        let error: String
        /// Words the error message must contain.
        let explanation: [String]
    }

    static let properties = "org.freedesktop.DBus.Properties"

    static let badCalls: [BadCall] = [
        BadCall(
            description: "wrong argument type", method: "Echo", arguments: [.int32(1)],
            error: DBusFailure.Name.invalidArgs, explanation: ["'s'", "got 'i'"]),
        BadCall(
            description: "missing argument", method: "Echo", error: DBusFailure.Name.invalidArgs,
            explanation: ["'s'", "got ''"]),
        BadCall(
            description: "extra argument", method: "Echo", arguments: [.string("a"), .string("b")],
            error: DBusFailure.Name.invalidArgs, explanation: ["'s'", "got 'ss'"]),
        BadCall(
            description: "unknown method", method: "Missing", error: DBusFailure.Name.unknownMethod,
            explanation: ["Missing", TestObject.interfaceName]),
        BadCall(
            description: "unknown method without an interface", interface: nil, method: "Missing",
            error: DBusFailure.Name.unknownMethod, explanation: ["Missing"]),
        BadCall(
            description: "unknown interface", interface: "org.example.Missing", method: "Echo",
            arguments: [.string("x")], error: DBusFailure.Name.unknownInterface,
            explanation: ["org.example.Missing", TestObject.interfaceName]),
        BadCall(
            description: "unknown object path", path: "/org/example/Missing", method: "Echo",
            arguments: [.string("x")], error: DBusFailure.Name.unknownObject, explanation: ["/org/example/Missing"]),
        BadCall(
            description: "Set of a read-only property", interface: properties, method: "Set",
            arguments: [.string(TestObject.interfaceName), .string("Version"), .variant(.uint32(9))],
            error: DBusFailure.Name.propertyReadOnly, explanation: ["Version", "read-only"]),
        BadCall(
            description: "Set with a mistyped value", interface: properties, method: "Set",
            arguments: [.string(TestObject.interfaceName), .string("Name"), .variant(.uint32(9))],
            error: DBusFailure.Name.invalidArgs, explanation: ["Name", "'s'", "'u'"]),
        BadCall(
            description: "Set with a non-variant value", interface: properties, method: "Set",
            arguments: [.string(TestObject.interfaceName), .string("Name"), .string("bare")],
            error: DBusFailure.Name.invalidArgs, explanation: ["'ssv'", "'sss'"]),
        BadCall(
            description: "Get of an unknown property", interface: properties, method: "Get",
            arguments: [.string(TestObject.interfaceName), .string("Missing")],
            error: DBusFailure.Name.unknownProperty, explanation: ["Missing"]),
        BadCall(
            description: "Get on an unknown interface", interface: properties, method: "Get",
            arguments: [.string("org.example.Missing"), .string("Name")],
            error: DBusFailure.Name.unknownInterface, explanation: ["org.example.Missing"]),
        BadCall(
            description: "GetAll on an unknown interface", interface: properties, method: "GetAll",
            arguments: [.string("org.example.Missing")], error: DBusFailure.Name.unknownInterface,
            explanation: ["org.example.Missing"]),
        BadCall(
            description: "Get with one argument", interface: properties, method: "Get",
            arguments: [.string(TestObject.interfaceName)], error: DBusFailure.Name.invalidArgs,
            explanation: ["'ss'", "got 's'"]),
        BadCall(
            description: "Introspect with an argument", interface: "org.freedesktop.DBus.Introspectable",
            method: "Introspect", arguments: [.string("x")], error: DBusFailure.Name.invalidArgs,
            explanation: ["got 's'"]),
        BadCall(
            description: "unknown method of a standard interface", interface: properties, method: "Delete",
            error: DBusFailure.Name.unknownMethod, explanation: ["Delete"]),
    ]

    @Test(arguments: badCalls)
    func badCallIsAnsweredWithAnErrorAndTheObjectKeepsServing(_ bad: BadCall) async throws {
        try await withTestObject { _, object, client in
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call(
                    bad.method, bad.arguments, from: client, interface: bad.interface, path: bad.path)
            }
            #expect(failure.name == bad.error)
            for word in bad.explanation {
                #expect(failure.message.contains(word), "message: \(failure.message)")
            }
            #expect(object.current.name == "initial")
            #expect(object.current.version == 3)
            let echo = try await TestObject.call("Echo", [.string("still serving")], from: client)
            #expect(echo == [.string("still serving")])
        }
    }

    @Test func replyNotMatchingTheDeclaredTypesIsAnsweredWithFailed() async throws {
        try await withTestObject { _, object, client in
            let path: DBusObjectPath = "/org/example/Sloppy"
            let sloppy = DBusInterface(
                "org.example.Sloppy",
                methods: [DBusMethod("Count", outputs: [.init("count", "u")]) { _ in [.string("three")] }])
            try await object.connection.export([sloppy], at: path)
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Count", from: client, interface: "org.example.Sloppy", path: path)
            }
            #expect(failure.name == DBusFailure.Name.failed)
            #expect(failure.message.contains("'s'"))
            #expect(failure.message.contains("'u'"))
            #expect(try await TestObject.call("Echo", [.string("ok")], from: client) == [.string("ok")])
        }
    }

    @Test func manyBadCallsInARowLeaveTheObjectServing() async throws {
        try await withTestObject { _, _, client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for bad in Self.badCalls {
                    group.addTask {
                        _ = try? await TestObject.call(
                            bad.method, bad.arguments, from: client, interface: bad.interface, path: bad.path)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await TestObject.call("Echo", [.string("ok")], from: client) == [.string("ok")])
        }
    }
}
