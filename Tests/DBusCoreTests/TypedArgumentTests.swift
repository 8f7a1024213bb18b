import DBusCore
import Testing

/// Swift types that carry their D-Bus signature: what they marshal as, and reading them back with `decode`.
@Suite struct TypedArgumentTests {
    struct SignatureCase: Sendable, CustomStringConvertible {
        let type: any DBusArgument.Type
        let signature: String
        var description: String { "\(type) is '\(signature)'" }
    }

    static let signatures: [SignatureCase] = [
        .init(type: UInt8.self, signature: "y"), .init(type: Bool.self, signature: "b"),
        .init(type: Int16.self, signature: "n"), .init(type: UInt16.self, signature: "q"),
        .init(type: Int32.self, signature: "i"), .init(type: UInt32.self, signature: "u"),
        .init(type: Int64.self, signature: "x"), .init(type: UInt64.self, signature: "t"),
        .init(type: Double.self, signature: "d"), .init(type: String.self, signature: "s"),
        .init(type: DBusObjectPath.self, signature: "o"), .init(type: DBusSignature.self, signature: "g"),
        .init(type: DBusVariant.self, signature: "v"), .init(type: [String].self, signature: "as"),
        .init(type: [[UInt8]].self, signature: "aay"), .init(type: [String: DBusVariant].self, signature: "a{sv}"),
        .init(type: [UInt32: [String]].self, signature: "a{uas}"),
        .init(type: DBusStruct<Int32, String>.self, signature: "(is)"),
        .init(type: [DBusStruct<String, [String: DBusVariant]>].self, signature: "a(sa{sv})"),
        .init(type: DBusStruct<Bool, DBusStruct<Double, DBusObjectPath>>.self, signature: "(b(do))"),
    ]

    @Test(arguments: signatures)
    func typeKnowsItsSignature(_ testCase: SignatureCase) {
        #expect(testCase.type.dbusSignature.rawValue == testCase.signature)
    }

    @Test func typedValuesSurviveTheWire() throws {
        let names = ["first", "second", "ünïcödé"]
        let hints: [String: DBusVariant] = ["urgency": DBusVariant(UInt8(2)), "category": DBusVariant("im.received")]
        let pair = DBusStruct(Int32(-7), "seven")
        let groups: [UInt32: [String]] = [1: ["a"], 2: [], 3: ["b", "c"]]
        let nested = DBusVariant(DBusVariant(Int64.min))

        let received = try roundTrip([
            names.dbusValue, hints.dbusValue, pair.dbusValue, groups.dbusValue, nested.dbusValue,
        ])
        #expect(received.signature == "asa{sv}(is)a{uas}v")
        let (gotNames, gotHints, gotPair, gotGroups, gotNested) = try received.arguments.decode(
            [String].self, [String: DBusVariant].self, DBusStruct<Int32, String>.self, [UInt32: [String]].self,
            DBusVariant.self)
        #expect(gotNames == names)
        #expect(gotHints == hints)
        #expect(gotPair.fields == (-7, "seven"))
        #expect(gotGroups == groups)
        #expect(try gotNested.get(DBusVariant.self).get(Int64.self) == .min)
    }

    @Test func arrayOfStructuresDecodes() throws {
        let rows = [DBusStruct("a", UInt64.max), DBusStruct("b", UInt64(0))]
        let received = try roundTrip([rows.dbusValue])
        let decoded = try received.arguments.decode([DBusStruct<String, UInt64>].self)
        #expect(decoded.map(\.fields.0) == ["a", "b"])
        #expect(decoded.map(\.fields.1) == [.max, 0])
    }

    @Test func dictionaryMarshalsInKeyOrder() {
        let dictionary: [String: Int32] = ["c": 3, "a": 1, "b": 2]
        guard case .dictionary(_, _, let entries) = dictionary.dbusValue else {
            Issue.record("a Swift dictionary should become a D-Bus dictionary")
            return
        }
        #expect(entries.map(\.key) == [.string("a"), .string("b"), .string("c")])
    }

    @Test func decodeNamesBothSignaturesWhenTheTypesDiffer() throws {
        let values: [DBusValue] = [.string("x"), .int32(1)]
        let failure = try #require(throws: DBusFailure.self) { try values.decode(String.self, UInt32.self) }
        #expect(failure.name == DBusFailure.Name.invalidArgs)
        #expect(failure.message.contains("'su'"))
        #expect(failure.message.contains("'si'"))
    }

    @Test func decodeRefusesTheWrongNumberOfValues() throws {
        let values: [DBusValue] = [.string("x")]
        let failure = try #require(throws: DBusFailure.self) { try values.decode(String.self, String.self) }
        #expect(failure.message.contains("'ss'"))
        #expect(failure.message.contains("'s'"))
    }

    @Test func variantGivesItsValueOnlyAsTheTypeItHolds() throws {
        let variant = DBusVariant(UInt32(5))
        #expect(try variant.get(UInt32.self) == 5)
        let failure = try #require(throws: DBusFailure.self) { try variant.get(Int32.self) }
        #expect(failure.message == "expected a value of type 'i', got 'u'")
    }

    @Test func structureRefusesFieldsOfOtherTypes() throws {
        let value = DBusValue.structure([.int32(1), .int32(2)])
        let failure = try #require(throws: DBusFailure.self) { try DBusStruct<Int32, String>(dbusValue: value) }
        #expect(failure.message.contains("'(is)'"))
        #expect(failure.message.contains("'(ii)'"))
    }

    @Test func arrayRefusesAnotherElementType() throws {
        let failure = try #require(throws: DBusFailure.self) {
            try [String](dbusValue: .array(element: "o", [.objectPath("/a")]))
        }
        #expect(failure.message.contains("'as'"))
        #expect(failure.message.contains("'ao'"))
    }

    @Test func readerReadsInOrderAndReportsTheEnd() throws {
        var reader = DBusValueReader([.string("a"), .uint32(2)])
        #expect(try reader.next(String.self) == "a")
        #expect(!reader.isAtEnd)
        #expect(try reader.next(UInt32.self) == 2)
        #expect(reader.isAtEnd)
        let failure = try #require(throws: DBusFailure.self) { try reader.next(String.self) }
        #expect(failure.message.contains("position 2"))
    }
}
