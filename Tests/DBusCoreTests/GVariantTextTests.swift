import DBusCore
import DBusTestSupport
import Testing

/// `DBusValue.description` is GVariant text: the same text `gdbus call` prints for the same values.
@Suite struct GVariantTextTests {
    static let path: DBusObjectPath = "/org/example/Text"
    static let interfaceName = "org.example.Text"

    /// Exports one method per list in `replies` (`Values0`, `Values1`, …) on one private bus, calls each with
    /// `gdbus call`, one after the other, and returns what gdbus printed for each.
    static func gdbusPrinting(_ replies: [[DBusValue]]) async throws -> [String] {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let methods = replies.enumerated().map { index, values in
                DBusMethod(
                    "Values\(index)",
                    outputs: values.enumerated().map { .init("value\($0.offset)", $0.element.signature) }
                ) { _ in values }
            }
            try await server.export([DBusInterface(interfaceName, methods: methods)], at: path)
            var printed: [String] = []
            for index in replies.indices {
                let result = try await gdbusCall(
                    on: bus, destination: server.uniqueName, path: path, method: "\(interfaceName).Values\(index)")
                #expect(result.status == 0, "gdbus call failed for \(replies[index]): \(result.standardError)")
                printed.append(result.output)
            }
            return printed
        }
    }

    /// What gdbus printed for one reply of `values`.
    static func gdbusPrinting(_ values: [DBusValue]) async throws -> String {
        try await gdbusPrinting([values])[0]
    }

    static let values: [DBusValue] = [
        .byte(0), .byte(0xfe), .boolean(true), .boolean(false),
        .int16(.min), .uint16(.max), .int32(.min), .int32(42), .uint32(.max), .int64(.min), .uint64(.max),
        .double(0), .double(-0.0), .double(1), .double(1.5), .double(0.1), .double(-2.5e-300), .double(1e16),
        .double(123_456_789.125), .double(1e100), .double(.infinity), .double(-.infinity), .double(.nan),
        .string(""), .string("plain"), .string("it's"), .string("say \"hi\""), .string("both ' and \""),
        .string("back\\slash"), .string("tab\t nl\n cr\r bell\u{7} esc\u{1b} del\u{7f}"),
        .string("Grüße 世界 🎉"), .string("c1 \u{85} zero width \u{200B} bom \u{FEFF} soft \u{AD}"),
        .string("private \u{E000} tag \u{E0001} unassigned \u{0378} separator \u{2028}"),
        .objectPath(.root), .objectPath("/org/example"), .signature(.empty), .signature("a{sv}"),
        .array(element: "i", [.int32(1), .int32(2)]), .strings(["a", "b"]),
        .array(element: "y", [.byte(1), .byte(2)]), .array(element: "y", "hello\0".utf8.map(DBusValue.byte)),
        .array(element: "y", [.byte(0)]), .array(element: "y", []),
        .array(element: "y", "it's \"q\" \\ \n\t\u{7} é\0".utf8.map(DBusValue.byte)),
        .array(element: "y", [.byte(0), .byte(0)]), .array(element: "y", [.byte(0), .byte(65), .byte(0)]),
        .array(element: "n", [.int16(1), .int16(2)]),
        .array(
            element: "au",
            [
                .array(element: "u", [.uint32(1)]),
                .array(element: "u", [.uint32(2)]),
            ]),
        .array(element: "as", [.strings([]), .strings([])]), .strings([]),
        .vardict([:]), .vardict(["a": .int32(1), "b": .strings([])]),
        .dictionary(
            key: "u", value: "s",
            [
                .init(key: .uint32(1), value: .string("a")),
                .init(key: .uint32(2), value: .string("b")),
            ]),
        .dictionary(
            key: "s", value: "as",
            [
                .init(key: .string("x"), value: .strings([])),
                .init(key: .string("y"), value: .strings([])),
            ]),
        .array(element: "v", [.variant(.int32(1)), .variant(.string("s"))]),
        .array(element: "(is)", [.structure([.int32(1), .string("a")]), .structure([.int32(2), .string("b")])]),
        .structure([.uint32(1)]), .structure([.byte(1), .structure([.int64(2)]), .objectPath("/p")]),
        .variant(.variant(.uint64(3))), .variant(.strings([])),
    ]

    /// Every value on one bus, called in turn: a bus and a `gdbus` per value, all at once, starved a loaded machine.
    @Test func textMatchesGdbus() async throws {
        let printed = try await Self.gdbusPrinting(Self.values.map { [$0] })
        for (value, text) in zip(Self.values, printed) {
            #expect([value].gvariantTupleText == text, "\(value)")
        }
    }

    @Test func replyOfSeveralValuesMatchesGdbus() async throws {
        let values: [DBusValue] = [.string("text"), .uint32(7), .vardict(["k": .boolean(true)]), .strings([])]
        #expect(values.gvariantTupleText == (try await Self.gdbusPrinting(values)))
    }

    @Test func emptyReplyMatchesGdbus() async throws {
        #expect([DBusValue]().gvariantTupleText == (try await Self.gdbusPrinting([])))
    }

    @Test func typesAreAnnotatedWhereTheTextWouldReadAsAnotherType() {
        #expect(DBusValue.uint32(7).description == "uint32 7")
        #expect(DBusValue.int32(7).description == "7")
        #expect(DBusValue.strings([]).description == "@as []")
        #expect(DBusValue.vardict(["n": .byte(1)]).description == "{'n': <byte 0x01>}")
        #expect([DBusValue.string("only")].gvariantTupleText == "('only',)")
    }
}
