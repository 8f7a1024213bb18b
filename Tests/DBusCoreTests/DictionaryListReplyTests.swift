import DBusCore
import DBusTestSupport
import Testing

/// A reply written in wire form from stored dictionaries (``DBusDictionaryList``) reaches libdbus and GLib clients as
/// the same `aa{sv}` a reply built value by value would; a list libdbus finds invalid is refused before anything is
/// sent, and the call can still be answered.
@Suite struct DictionaryListReplyTests {
    static let interface = "org.example.Lists"
    static let path: DBusObjectPath = "/org/example/Lists"

    /// Exports `List`, whose calls the test answers as they arrive.
    static func withListObject<T>(
        _ body: (_ bus: PrivateBus, _ calls: AsyncStream<DBusMethodCall>, _ client: DBusConnection) async throws -> T
    ) async throws -> T {
        try await withTestObject { bus, object, client in
            let held = HeldCalls()
            let lists = DBusInterface(interface, methods: [held.method("List", outputs: [.init("items", "aa{sv}")])])
            try await object.connection.export([lists], at: path)
            return try await body(bus, held.arrivals, client)
        }
    }

    static func callList(from client: DBusConnection) async throws -> [DBusValue] {
        try await client.call(
            destination: TestObject.busName, path: path, interface: interface, method: "List", arguments: [],
            timeout: .seconds(10))
    }

    static let first: [String: DBusValue] = [
        "label": .string("Tea is ready"), "level": .byte(2), "delay": .int32(-1), "kept": .boolean(false),
        "choices": .strings(["open", "snooze"]), "extra": .vardict(["cup": .string("green")]),
    ]
    static let second: [String: DBusValue] = ["label": .string("Grüße 世界"), "after": .double(90)]

    @Test func storedDictionariesWithAddedEntriesArriveAsTheyWouldBuiltValueByValue() async throws {
        try await Self.withListObject { _, calls, client in
            async let reply = Self.callList(from: client)
            let call = try await calls.first(waitingFor: "the List call")
            var list = DBusDictionaryList()
            try list.append(DBusWireDictionary(Self.first), adding: [("key", .string("a1")), ("at", .int64(-5))])
            // Read back from its bytes, as a store gives them.
            let stored = try DBusWireDictionary(Self.second).bytes
            try list.append(DBusWireDictionary(bytes: stored), adding: [("key", .string("b2"))])
            try call.reply(list)

            var expectedFirst = Self.first
            expectedFirst["key"] = .string("a1")
            expectedFirst["at"] = .int64(-5)
            var expectedSecond = Self.second
            expectedSecond["key"] = .string("b2")
            let received = try await reply
            guard case .array(_, let elements)? = received.first else {
                Issue.record("not an array: \(received)")
                return
            }
            let dictionaries = elements.map { $0.stringKeyedEntries?.mapValues(\.unwrappedVariant) }
            #expect(dictionaries == [expectedFirst, expectedSecond])
        }
    }

    @Test func gdbusPrintsTheListAsItsOwnValues() async throws {
        try await Self.withListObject { bus, calls, _ in
            async let result = gdbusCall(
                on: bus, destination: TestObject.busName, path: Self.path, method: "\(Self.interface).List", [])
            let call = try await calls.first(waitingFor: "gdbus's call")
            var list = DBusDictionaryList()
            try list.append(DBusWireDictionary(Self.second), adding: [("key", .string("b2"))])
            try list.append(DBusWireDictionary([:]), adding: [])
            try call.reply(list)
            let output = try await result
            #expect(output.status == 0, "gdbus call failed: \(output.standardError)")
            #expect(output.output == "([{'after': <90.0>, 'label': <'Grüße 世界'>, 'key': <'b2'>}, {}],)")
        }
    }

    @Test func anEmptyListIsAnEmptyArray() async throws {
        try await Self.withListObject { _, calls, client in
            async let reply = Self.callList(from: client)
            let call = try await calls.first(waitingFor: "the List call")
            try call.reply(DBusDictionaryList())
            #expect(try await reply == [.array(element: "a{sv}", [])])
        }
    }

    @Test func aDamagedStoredDictionaryIsRefusedAndTheCallCanStillBeAnswered() async throws {
        try await Self.withListObject { _, calls, client in
            async let reply = Self.callList(from: client)
            let call = try await calls.first(waitingFor: "the List call")

            // Not a message at all: refused as it is added.
            var list = DBusDictionaryList()
            #expect(throws: DBusFailure.self) {
                try list.append(DBusWireDictionary(bytes: [1, 2, 3]), adding: [])
            }
            // A message whose string is no longer UTF-8: only libdbus's check of the whole reply finds it.
            var damaged = try DBusWireDictionary(["label": .string("tea")]).bytes
            let at = try #require(damaged.lastIndex(of: UInt8(ascii: "t")))
            damaged[at] = 0xFF
            try list.append(DBusWireDictionary(bytes: damaged), adding: [])
            let failure = try #require(throws: DBusFailure.self) { try call.reply(list) }
            #expect(failure.message.contains("not valid"), "\(failure.message)")
            #expect(!call.isAnswered)

            call.reply([.array(element: "a{sv}", [.vardict(["label": .string("tea")])])])
            #expect(try await reply == [.array(element: "a{sv}", [.vardict(["label": .string("tea")])])])
        }
    }

    @Test func onlyBasicValuesCanBeAddedAndAFailedAppendLeavesTheListAsItWas() async throws {
        try await Self.withListObject { _, calls, client in
            async let reply = Self.callList(from: client)
            let call = try await calls.first(waitingFor: "the List call")
            var list = DBusDictionaryList()
            try list.append(DBusWireDictionary(Self.second), adding: [])
            let failure = try #require(throws: DBusFailure.self) {
                try list.append(
                    DBusWireDictionary(Self.first), adding: [("key", .string("a1")), ("tags", .strings(["a"]))])
            }
            #expect(failure.message.contains("'tags'"))
            #expect(failure.message.contains("'as'"))
            try call.reply(list)
            #expect(try await reply == [.array(element: "a{sv}", [.vardict(Self.second)])])
        }
    }

    @Test func aMethodThatDoesNotReturnAListOfDictionariesRefusesOne() async throws {
        try await withTestObject { _, object, client in
            async let answer = TestObject.call("Hold", from: client, timeout: .seconds(10))
            let held = try await object.held.arrivals.first(waitingFor: "the deferred call")
            let failure = try #require(throws: DBusFailure.self) { try held.reply(DBusDictionaryList()) }
            #expect(failure.message.contains("'s'"))
            held.reply(with: "still answered")
            #expect(try await answer == [.string("still answered")])
        }
    }

    /// Bytes changed anywhere in a kept dictionary, as a damaged store might give them: each list is refused as it is
    /// built or by libdbus's check, and the call is answered otherwise, or it arrives as one dictionary. Nothing
    /// malformed reaches the bus, and the process goes on.
    @Test func damagedKeptFormsAreRefusedOrArriveWhole() async throws {
        try await Self.withListObject { _, calls, client in
            let kept = try DBusWireDictionary(Self.first).bytes
            var random = SeededGenerator(seed: 0x6e62_6c69_7374)
            var (arrived, refused) = (0, 0)
            for _ in 0..<300 {
                var damaged = kept
                for _ in 0..<(1 + random.next() % 4) {
                    damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                async let reply = Self.callList(from: client)
                let call = try await calls.first(waitingFor: "the List call")
                var list = DBusDictionaryList()
                do {
                    try list.append(DBusWireDictionary(bytes: damaged), adding: [("key", .string("k"))])
                    try call.reply(list)
                } catch {
                    refused += 1
                    #expect(!call.isAnswered)
                    call.reply([.array(element: "a{sv}", [])])
                    #expect(try await reply == [.array(element: "a{sv}", [])])
                    continue
                }
                arrived += 1
                guard case .array(_, let elements)? = try await reply.first, elements.count == 1 else {
                    Issue.record("an accepted list did not arrive as one dictionary")
                    continue
                }
                #expect(elements[0].stringKeyedEntries?["key"] == .variant(.string("k")))
            }
            // Both ways were taken: changes that keep the message valid, and changes that do not.
            #expect(arrived > 0, "no damaged form was accepted")
            #expect(refused > 0, "no damaged form was refused")
        }
    }
}
