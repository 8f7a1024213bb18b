import DBusCore
import DBusTestSupport
import Testing

/// Properties read and written by `gdbus call` through `org.freedesktop.DBus.Properties`, and the
/// `PropertiesChanged` signal that follows a change.
@Suite struct PropertiesTests {
    static let properties = "org.freedesktop.DBus.Properties"

    static func gdbusProperties(_ method: String, _ arguments: [String], on bus: PrivateBus) async throws -> String {
        let result = try await gdbusCall(
            on: bus, destination: TestObject.busName, path: TestObject.path, method: "\(properties).\(method)",
            arguments)
        #expect(result.status == 0, "gdbus call \(method) failed: \(result.standardError)")
        return result.output
    }

    /// Subscribes `connection` to the object's `PropertiesChanged` signals.
    static func changes(seenBy connection: DBusConnection) async throws -> AsyncStream<DBusSignal> {
        try await connection.signals(
            matching: DBusMatchRule(
                sender: TestObject.busName, path: TestObject.path, interface: properties, member: "PropertiesChanged"))
    }

    @Test func gdbusReadsEachProperty() async throws {
        try await withTestObject { bus, _, _ in
            func get(_ name: String) async throws -> String {
                try await Self.gdbusProperties("Get", [TestObject.interfaceName, name], on: bus)
            }
            let (name, tags, version) = (try await get("Name"), try await get("Tags"), try await get("Version"))
            #expect(name == "(<'initial'>,)")
            #expect(tags == "(<['a', 'b']>,)")
            #expect(version == "(<uint32 3>,)")
        }
    }

    @Test func gdbusReadsAllProperties() async throws {
        try await withTestObject { bus, _, _ in
            let all = DBusValue.vardict([
                "Name": .string("initial"), "Tags": .strings(["a", "b"]), "Version": .uint32(3),
            ])
            let printed = try await Self.gdbusProperties("GetAll", [TestObject.interfaceName], on: bus)
            #expect(printed == [all].gvariantTupleText)
            // An empty interface name means every interface of the object.
            let printedForAll = try await Self.gdbusProperties("GetAll", ["''"], on: bus)
            #expect(printedForAll == [all].gvariantTupleText)
        }
    }

    @Test func gdbusWritesAPropertyAndEveryoneHearsOfIt() async throws {
        try await withTestObject { bus, object, client in
            let changes = try await Self.changes(seenBy: client)

            #expect(
                try await Self.gdbusProperties("Set", [TestObject.interfaceName, "Name", "<'renamed'>"], on: bus)
                    == "()")
            #expect(object.current.name == "renamed")
            let signal = try await changes.first(waitingFor: "PropertiesChanged after Set")
            #expect(signal.sender == object.connection.uniqueName)
            #expect(
                signal.arguments == [
                    .string(TestObject.interfaceName), .vardict(["Name": .string("renamed")]),
                    .strings([]),
                ])

            #expect(
                try await Self.gdbusProperties("Set", [TestObject.interfaceName, "Tags", "<@as []>"], on: bus)
                    == "()")
            #expect(object.current.tags.isEmpty)
            let second = try await changes.first(waitingFor: "PropertiesChanged after the second Set")
            #expect(second.arguments[1] == .vardict(["Tags": .strings([])]))
            #expect(
                try await Self.gdbusProperties("Get", [TestObject.interfaceName, "Tags"], on: bus) == "(<@as []>,)")
        }
    }

    @Test func programAnnouncesItsOwnChanges() async throws {
        try await withTestObject { _, object, client in
            let changes = try await Self.changes(seenBy: client)
            object.update { $0.version = 4 }
            object.connection.emitPropertiesChanged(
                path: TestObject.path, interface: TestObject.interfaceName, changed: ["Version"], invalidated: ["Tags"])
            let signal = try await changes.first(waitingFor: "the announced change")
            #expect(
                signal.arguments == [
                    .string(TestObject.interfaceName), .vardict(["Version": .uint32(4)]),
                    .strings(["Tags"]),
                ])
        }
    }

    @Test func clientReadsAndWritesThroughItsOwnConnection() async throws {
        try await withTestObject { _, object, client in
            func properties(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
                try await TestObject.call(method, arguments, from: client, interface: Self.properties)
            }
            let name = try await properties("Get", [.string(TestObject.interfaceName), .string("Name")])
            #expect(try name.decode(DBusVariant.self).get(String.self) == "initial")

            _ = try await properties(
                "Set", [.string(TestObject.interfaceName), .string("Tags"), .variant(.strings(["x", "y"]))])
            #expect(object.current.tags == ["x", "y"])

            let all = try await properties("GetAll", [.string(TestObject.interfaceName)])
            let values = try all.decode([String: DBusVariant].self)
            #expect(try values["Tags"]?.get([String].self) == ["x", "y"])
            #expect(try values["Version"]?.get(UInt32.self) == 3)
        }
    }

    @Test func setterRefusingAValueKeepsTheOldOneAndAnnouncesNothing() async throws {
        try await withTestObject { _, object, client in
            let changes = try await Self.changes(seenBy: client)
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call(
                    "Set", [.string(TestObject.interfaceName), .string("Name"), .variant(.string(""))], from: client,
                    interface: Self.properties)
            }
            #expect(failure.name == DBusFailure.Name.invalidArgs)
            #expect(failure.message == "the name cannot be empty")
            #expect(object.current.name == "initial")

            // A change after the refusal is the first one announced.
            object.update { $0.name = "changed later" }
            object.connection.emitPropertiesChanged(
                path: TestObject.path, interface: TestObject.interfaceName, changed: ["Name"])
            let signal = try await changes.first(waitingFor: "the announced change")
            #expect(signal.arguments[1] == .vardict(["Name": .string("changed later")]))
        }
    }
}
