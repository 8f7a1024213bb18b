import DBusCore
import GVariantText
import Testing

@Suite("GVariantText")
struct GVariantTextTests {
    @Test(
        "text parses into the value gdbus would send",
        arguments: [
            ("'hello'", DBusValue.string("hello")), ("7", .int32(7)), ("true", .boolean(true)),
            ("byte 2", .byte(2)), ("uint32 7", .uint32(7)), ("int64 -3", .int64(-3)), ("2.5", .double(2.5)),
            ("['a', 'b']", .strings(["a", "b"])), ("@as []", .strings([])),
            ("<{'a': <[1, 2]>}>", .variant(.vardict(["a": .array(element: "i", [.int32(1), .int32(2)])]))),
            ("('x', 1)", .structure([.string("x"), .int32(1)])),
            ("objectpath '/a/b'", .objectPath("/a/b")),
        ])
    func parses(text: String, value: DBusValue) throws {
        #expect(try GVariantText.parse(text) == value)
    }

    @Test("the expected type gives bare text its type")
    func expectedType() throws {
        #expect(try GVariantText.parse("7", as: "u") == .uint32(7))
        #expect(try GVariantText.parse("[]", as: "as") == .strings([]))
        #expect(try GVariantText.parse("{'k': <1>}", as: "a{sv}") == .vardict(["k": .int32(1)]))
    }

    @Test(
        "bad text throws GLib's message",
        arguments: [("'unclosed", "unterminated"), ("hello", "unknown keyword"), ("[1, 'a']", "")])
    func errors(text: String, says: String) {
        let error = #expect(throws: GVariantTextError.self) { try GVariantText.parse(text) }
        #expect(error?.message.isEmpty == false)
        if !says.isEmpty { #expect(error?.message.contains(says) == true, "\(error?.message ?? "")") }
    }

    @Test("a value of another type than expected, and types D-Bus cannot carry, are refused")
    func refused() {
        #expect(throws: GVariantTextError.self) { try GVariantText.parse("'text'", as: "u") }
        #expect(throws: GVariantTextError.self) { try GVariantText.parse("just 5") }
        #expect(throws: GVariantTextError.self) { try GVariantText.parse("()") }
    }
}
