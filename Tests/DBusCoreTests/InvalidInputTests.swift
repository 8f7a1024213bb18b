import DBusCore
import Testing

/// Input that cannot go on the wire, or bytes that are not a message: each is refused with a `DBusFailure` that says
/// what is wrong, and nothing traps.
@Suite struct InvalidInputTests {
    struct BadValue: Sendable, CustomStringConvertible {
        let description: String
        let value: DBusValue
        /// Words the failure's message must contain.
        let explanation: String
    }

    static let badValues: [BadValue] = [
        .init(description: "string with NUL", value: .string("a\0b"), explanation: "NUL"),
        .init(description: "NUL deep inside", value: .vardict(["k": .strings(["ok", "bad\0"])]), explanation: "NUL"),
        .init(
            description: "array element of another type", value: .array(element: "s", [.string("a"), .int32(1)]),
            explanation: "type 'i' where type 's' was declared"),
        .init(
            description: "dictionary key of another type",
            value: .dictionary(key: "s", value: "v", [.init(key: .uint32(1), value: .variant(.int32(1)))]),
            explanation: "type 'u' where type 's' was declared"),
        .init(
            description: "dictionary value of another type",
            value: .dictionary(key: "s", value: "v", [.init(key: .string("k"), value: .int32(1))]),
            explanation: "type 'i' where type 'v' was declared"),
        .init(
            description: "container as dictionary key", value: .dictionary(key: "as", value: "s", []),
            explanation: "not a basic type"),
        .init(
            description: "two types as dictionary value", value: .dictionary(key: "s", value: "ss", []),
            explanation: "not a single complete type"),
        .init(
            description: "two types as array element", value: .array(element: "ss", []),
            explanation: "not a single complete type"),
        .init(
            description: "no type as array element", value: .array(element: .empty, []),
            explanation: "not a single complete type"),
        .init(description: "structure without fields", value: .structure([]), explanation: "at least one field"),
        .init(description: "65 nested variants", value: nested(65) { .variant($0) }, explanation: "deeper than 64"),
        .init(
            description: "33 nested arrays", value: nested(33) { .array(element: $0.signature, [$0]) },
            explanation: "deeper than 32"),
        .init(
            description: "33 nested structures", value: nested(33) { .structure([$0]) },
            explanation: "deeper than 32"),
        .init(
            description: "33 nested arrays inside a variant",
            value: .variant(nested(33) { .array(element: $0.signature, [$0]) }), explanation: "deeper than 32"),
        .init(
            description: "structure whose signature is too long",
            value: .structure(Array(repeating: .int32(0), count: 300)), explanation: "at most 255"),
    ]

    private static func nested(_ depth: Int, _ wrap: (DBusValue) -> DBusValue) -> DBusValue {
        var value = DBusValue.int32(1)
        for _ in 0..<depth { value = wrap(value) }
        return value
    }

    @Test(arguments: badValues)
    func valueIsRefusedWithAReason(_ bad: BadValue) throws {
        let failure = try #require(throws: DBusFailure.self) { try roundTrip([bad.value]) }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains(bad.explanation), "message: \(failure.message)")
        #expect(throws: DBusFailure.self) { try bad.value.validate() }
    }

    @Test func argumentsWhoseSignatureTogetherIsTooLongAreRefused() throws {
        let arguments = Array(repeating: DBusValue.structure([.int32(1), .int32(2)]), count: 100)
        let failure = try #require(throws: DBusFailure.self) { try roundTrip(arguments) }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains("255"), "message: \(failure.message)")
    }

    static let badSignatures: [(text: String, explanation: String)] = [
        ("z", "'z' at byte 0 is not a D-Bus type code"),
        ("a", "ends where a type was expected"),
        ("(", "structure"),
        ("()", "at least one field"),
        ("(i", "not closed"),
        ("a{vs}", "key must be a basic type"),
        ("a{s}", "'}' at byte 3"),
        ("a{sss}", "exactly a key and a value"),
        ("{sv}", "not a D-Bus type code"),
        (String(repeating: "a", count: 33) + "i", "arrays nest deeper than 32"),
        (String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33), "structures nest deeper than 32"),
        (String(repeating: "i", count: 256), "at most 255"),
    ]

    @Test(arguments: badSignatures)
    func signatureIsRefusedWithAReason(_ text: String, _ explanation: String) throws {
        let failure = try #require(throws: DBusFailure.self) { try DBusSignature(text) }
        #expect(failure.name == DBusFailure.Name.invalidSignature)
        #expect(failure.message.contains(explanation), "message: \(failure.message)")
    }

    @Test(arguments: ["", "a", "/a/", "//", "/a//b", "/a-b", "/a.b", "/ä", "/a b"])
    func objectPathIsRefusedWithAReason(_ text: String) throws {
        let failure = try #require(throws: DBusFailure.self) { try DBusObjectPath(text) }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains("is not a valid object path"))
        #expect(!DBusObjectPath.isValid(text))
    }

    @Test(arguments: ["/", "/a", "/a/b_2/C3", "/_"])
    func validObjectPathsAreAccepted(_ text: String) throws {
        #expect(try DBusObjectPath(text).rawValue == text)
    }

    @Test(arguments: [
        "nodots", "1a.b", "a..b", "a.b.", ".a.b", "a.b-c", "a.b\0c", "", String(repeating: "a.", count: 128) + "a",
    ])
    func interfaceNameIsRefusedWithAReason(_ name: String) throws {
        let failure = try #require(throws: DBusFailure.self) {
            try DBusWire.encodeSignal(path: "/a", interface: name, member: "Member", arguments: [])
        }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains("is not a valid interface name"))
    }

    @Test(arguments: ["", "1x", "a.b", "a-b", "a b", "ä", String(repeating: "m", count: 256)])
    func memberNameIsRefusedWithAReason(_ name: String) throws {
        let failure = try #require(throws: DBusFailure.self) {
            try DBusWire.encodeSignal(path: "/a", interface: "org.example.I", member: name, arguments: [])
        }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains("is not a valid member name"))
    }

    @Test func busNamesFollowTheSpecification() {
        let longest = "org." + String(repeating: "a", count: 251)
        for valid in [":1.42", "org.example.App", "org.example-dash.App_2", ":a.b", "a.b", ":1.-2", "-a.b", longest] {
            #expect(DBusNames.isValidBusName(valid), "\(valid) is valid")
        }
        let invalids = [
            "", "org", ":1", "1org.example", "org..example", "org.example.", "org.ex ample", "org.é.x", ".org.example",
            ":.1", ":1.42.", ":", "org.1example", longest + "a",
        ]
        for invalid in invalids {
            #expect(!DBusNames.isValidBusName(invalid), "\(invalid) is invalid")
        }
    }

    // MARK: Bytes that are not a message

    static let message: [UInt8] =
        (try? DBusWire.encodeSignal(
            path: "/org/example/Wire", interface: "org.example.Wire", member: "Values",
            arguments: [.string("hello"), .uint32(7)])) ?? []

    @Test(arguments: [0, 1, 15, 16, 40, message.count - 1])
    func truncatedMessageIsRefused(_ length: Int) throws {
        let failure = try #require(throws: DBusFailure.self) {
            try DBusWire.decodeArguments(from: Array(Self.message.prefix(length)))
        }
        #expect(failure.message.contains("incomplete"), "message: \(failure.message)")
    }

    @Test func garbageIsRefused() throws {
        var generator = SystemRandomNumberGenerator()
        for length in [16, 64, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: DBusFailure.self) { try DBusWire.decodeArguments(from: bytes) }
        }
        let failure = try #require(throws: DBusFailure.self) {
            try DBusWire.decodeArguments(from: Array(repeating: 0xAB, count: 64))
        }
        #expect(failure.message.contains("byte order"), "message: \(failure.message)")
    }

    @Test func corruptedBodyIsRefused() throws {
        // The last bytes are the uint32 argument; before it, the string "hello", its NUL and padding.
        var badText = Self.message
        let hello = try #require(badText.lastIndex(of: UInt8(ascii: "h")))
        badText[hello] = 0xFF
        let textFailure = try #require(throws: DBusFailure.self) { try DBusWire.decodeArguments(from: badText) }
        #expect(textFailure.message.contains("utf8"), "message: \(textFailure.message)")

        var missingNul = Self.message
        missingNul[hello + 5] = UInt8(ascii: "!")
        #expect(throws: DBusFailure.self) { try DBusWire.decodeArguments(from: missingNul) }
    }

    @Test func everyTruncationAndByteFlipEndsInAValueOrAnError() {
        // Remote input never traps: walk every prefix and every single-byte change of a real message.
        for length in 0..<Self.message.count {
            _ = try? DBusWire.decodeArguments(from: Array(Self.message.prefix(length)))
        }
        for index in Self.message.indices {
            var changed = Self.message
            changed[index] ^= 0xFF
            _ = try? DBusWire.decodeArguments(from: changed)
        }
    }
}
