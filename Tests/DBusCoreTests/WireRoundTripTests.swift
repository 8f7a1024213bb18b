import DBusCore
import Testing

/// Values put into a message in wire form and read back, with no bus: what one peer sends, the other receives.
@Suite struct WireRoundTripTests {
    static let basicValues: [DBusValue] = [
        .byte(0), .byte(42), .byte(.max),
        .boolean(true), .boolean(false),
        .int16(.min), .int16(-1), .int16(.max),
        .uint16(0), .uint16(.max),
        .int32(.min), .int32(0), .int32(.max),
        .uint32(0), .uint32(.max),
        .int64(.min), .int64(-1), .int64(.max),
        .uint64(0), .uint64(.max),
        .double(0), .double(-0.0), .double(1.5), .double(-2.25e-300), .double(.pi),
        .double(.infinity), .double(-.infinity), .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
        .string(""), .string("hello"), .string("Grüße, 世界 🎉 — \u{301}e"),
        .string("tab\tnew\nline 'quote' \"dq\""),
        .objectPath(.root), .objectPath("/org/example/Deep/Path_2"),
        .signature(.empty), .signature("a{sv}"), .signature("(iiibiiay)sa{s(ua{sv})}"),
    ]

    @Test(arguments: basicValues)
    func basicValueComesBackUnchanged(_ value: DBusValue) throws {
        let received = try roundTrip([value])
        #expect(received.signature == value.signature.rawValue)
        #expect(received.arguments == [value])
    }

    @Test func longStringComesBackUnchanged() throws {
        let text = String(repeating: "long text, ", count: 100_000)
        #expect(try roundTrip([.string(text)]).arguments == [.string(text)])
    }

    @Test func notANumberStaysNotANumber() throws {
        let received = try roundTrip([.double(.nan)])
        #expect(received.signature == "d")
        guard case .double(let number)? = received.arguments.first else {
            Issue.record("expected one double, got \(received.arguments)")
            return
        }
        #expect(number.isNaN)
    }

    static let containerValues: [DBusValue] = [
        .array(element: "i", [.int32(1), .int32(-2), .int32(3)]),
        .strings(["one", "two", ""]),
        .array(element: "y", (0...255).map { .byte(UInt8($0)) }),
        .array(element: "as", [.strings(["a"]), .strings([]), .strings(["b", "c"])]),
        .array(element: "(is)", [.structure([.int32(1), .string("x")]), .structure([.int32(2), .string("y")])]),
        .vardict(["count": .uint32(7), "name": .string("n"), "on": .boolean(true), "list": .strings(["z"])]),
        .dictionary(key: "u", value: "as", [.init(key: .uint32(1), value: .strings(["a"]))]),
        .dictionary(key: "o", value: "a{sv}", [.init(key: .objectPath("/a"), value: .vardict(["k": .int64(.min)]))]),
        .structure([.int32(1), .string("two"), .double(3)]),
        .structure([.structure([.byte(1)]), .strings([]), .variant(.uint16(2))]),
        .variant(.int32(1)),
        .variant(.strings(["inside"])),
        .variant(.variant(.variant(.string("three deep")))),
        .variant(.vardict(["nested": .variant(.structure([.boolean(false)]))])),
    ]

    @Test(arguments: containerValues)
    func containerComesBackUnchanged(_ value: DBusValue) throws {
        let received = try roundTrip([value])
        #expect(received.signature == value.signature.rawValue)
        #expect(received.arguments == [value])
    }

    static let emptyContainers: [DBusValue] = [
        .strings([]),
        .vardict([:]),
        .array(element: "aas", []),
        .array(element: "(ia{sv})", []),
        .dictionary(key: "x", value: "(dd)", []),
        .array(element: "as", [.strings([]), .strings([])]),
        .variant(.strings([])),
    ]

    @Test(arguments: emptyContainers)
    func emptyContainerKeepsItsType(_ value: DBusValue) throws {
        let received = try roundTrip([value])
        #expect(received.signature == value.signature.rawValue)
        #expect(received.arguments == [value])
    }

    @Test func emptyTypedContainersKeepTheirSignatures() throws {
        let received = try roundTrip([[String]().dbusValue, [String: DBusVariant]().dbusValue])
        #expect(received.signature == "asa{sv}")
        #expect(received.arguments == [.strings([]), .vardict([:])])
        let (strings, dictionary) = try received.arguments.decode([String].self, [String: DBusVariant].self)
        #expect(strings.isEmpty)
        #expect(dictionary.isEmpty)
    }

    @Test func manyArgumentsKeepTheirOrder() throws {
        let arguments = Self.basicValues
        let received = try roundTrip(arguments)
        #expect(received.arguments == arguments)
        #expect(received.signature == arguments.map(\.signature.rawValue).joined())
    }

    @Test func variantsNestSixtyFourDeep() throws {
        var value = DBusValue.string("bottom")
        for _ in 0..<64 { value = .variant(value) }
        let received = try roundTrip([value])
        #expect(received.arguments == [value])
        #expect(received.arguments.first?.unwrappedVariant == .string("bottom"))
    }

    @Test func arraysAndStructuresNestToTheSpecificationLimit() throws {
        var array = DBusValue.int32(1)
        for _ in 0..<32 { array = .array(element: array.signature, [array]) }
        var structure = DBusValue.int32(1)
        for _ in 0..<32 { structure = .structure([structure]) }
        var both = array
        for _ in 0..<32 { both = .structure([both]) }
        let received = try roundTrip([array, structure, both])
        #expect(received.arguments == [array, structure, both])
    }

    @Test func noArgumentsGiveAnEmptyBody() throws {
        let received = try roundTrip([])
        #expect(received.signature == "")
        #expect(received.arguments.isEmpty)
    }

    @Test func messageLengthIsKnownFromTheHeader() throws {
        let bytes = try DBusWire.encodeSignal(
            path: "/a", interface: "org.example.Wire", member: "Values", arguments: [.string("payload")])
        #expect(try DBusWire.messageLength(in: bytes) == bytes.count)
        #expect(try DBusWire.messageLength(in: Array(bytes.prefix(20))) == bytes.count)
        #expect(try DBusWire.messageLength(in: Array(bytes.prefix(8))) == 0)
    }
}
