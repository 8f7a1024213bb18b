import NotificationModel
import Testing

@Suite("JSONValue(parsing:)")
struct JSONValueParsingTests {
    static let valid: [(text: String, value: JSONValue)] = [
        ("null", JSONValue.null), ("true", true), (" \t\r\n false \n", false), ("0", 0), ("-0", .number(-0.0)),
        ("12", 12), ("-12.5", -12.5), ("1.5e3", 1500), ("1E-2", 0.01), ("2e+2", 200), ("0.000001", 1e-6),
        ("1e-400", 0), (#""""#, ""), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""\u00e9\u00E9é""#, "ééé"), (#""\ud83d\ude00""#, "😀"), (#""\u0000""#, "\u{0}"), (#""😀𝄞""#, "😀𝄞"),
        ("[]", []), ("{}", [:]), ("[1, [2, [3]], {\"a\": {\"b\": []}}]", [1, [2, [3]], ["a": ["b": []]]]),
        (#"{ "k" : "v" , "n" : null }"#, ["k": "v", "n": nil]),
    ]

    @Test("valid text parses to the expected value", arguments: valid)
    func parses(text: String, value: JSONValue) throws {
        let parsed = try JSONValue(parsing: text)
        #expect(parsed == value)
        if case .number(let number) = value, number == 0 {
            // == treats -0 and 0 as equal; the sign must still be kept.
            guard case .number(let parsedNumber) = parsed else { return }
            #expect(parsedNumber.sign == number.sign)
        }
    }

    /// Text the parser must reject, with the reason and where.
    struct Invalid: Sendable, CustomTestStringConvertible {
        var text: String
        var reason: JSONParseError.Reason
        var line: Int
        var column: Int
        var offset: Int
        var testDescription: String { text.debugDescription }
    }

    static let invalid: [Invalid] = [
        Invalid(text: "", reason: .unexpectedEndOfInput(expected: "a JSON value"), line: 1, column: 1, offset: 0),
        Invalid(text: "   ", reason: .unexpectedEndOfInput(expected: "a JSON value"), line: 1, column: 4, offset: 3),
        Invalid(
            text: "[1,]",
            reason: .unexpectedCharacter("]", expected: "a value after ','"),
            line: 1,
            column: 4,
            offset: 3
        ),
        Invalid(
            text: "[1 2]",
            reason: .unexpectedCharacter("2", expected: "',' or ']' after an array element"),
            line: 1,
            column: 4,
            offset: 3
        ),
        Invalid(
            text: #"{"a":1,}"#,
            reason: .unexpectedCharacter("}", expected: "a string key after ','"),
            line: 1,
            column: 8,
            offset: 7
        ),
        Invalid(
            text: #"{a:1}"#,
            reason: .unexpectedCharacter("a", expected: "a string key or '}'"),
            line: 1,
            column: 2,
            offset: 1
        ),
        Invalid(
            text: #"{"a" 1}"#,
            reason: .unexpectedCharacter("1", expected: "':' after an object key"),
            line: 1,
            column: 6,
            offset: 5
        ),
        Invalid(
            text: #"{"a":1"#,
            reason: .unexpectedEndOfInput(expected: "',' or '}' after an object member"),
            line: 1,
            column: 7,
            offset: 6
        ),
        Invalid(
            text: "01",
            reason: .unexpectedCharacter(
                "1",
                expected: "'.', 'e' or the end of the number (JSON numbers have no leading zeros)"
            ),
            line: 1,
            column: 2,
            offset: 1
        ),
        Invalid(
            text: "1.",
            reason: .unexpectedEndOfInput(expected: "a digit after '.'"),
            line: 1,
            column: 3,
            offset: 2
        ),
        Invalid(text: "-", reason: .unexpectedEndOfInput(expected: "a digit after '-'"), line: 1, column: 2, offset: 1),
        Invalid(
            text: "1e+",
            reason: .unexpectedEndOfInput(expected: "a digit after the exponent marker"),
            line: 1,
            column: 4,
            offset: 3
        ),
        Invalid(text: "+1", reason: .unexpectedCharacter("+", expected: "a JSON value"), line: 1, column: 1, offset: 0),
        Invalid(text: ".5", reason: .unexpectedCharacter(".", expected: "a JSON value"), line: 1, column: 1, offset: 0),
        Invalid(text: "1e400", reason: .numberOutOfRange("1e400"), line: 1, column: 1, offset: 0),
        Invalid(
            text: "NaN",
            reason: .unexpectedCharacter("N", expected: "a JSON value"),
            line: 1,
            column: 1,
            offset: 0
        ),
        Invalid(text: "tru", reason: .unexpectedEndOfInput(expected: "'true'"), line: 1, column: 4, offset: 3),
        Invalid(text: "nul", reason: .unexpectedEndOfInput(expected: "'null'"), line: 1, column: 4, offset: 3),
        Invalid(text: "fals3", reason: .unexpectedCharacter("3", expected: "'false'"), line: 1, column: 5, offset: 4),
        Invalid(
            text: "'a'",
            reason: .unexpectedCharacter("'", expected: "a JSON value"),
            line: 1,
            column: 1,
            offset: 0
        ),
        Invalid(
            text: "// c\n1",
            reason: .unexpectedCharacter("/", expected: "a JSON value"),
            line: 1,
            column: 1,
            offset: 0
        ),
        Invalid(
            text: #""abc"#,
            reason: .unexpectedEndOfInput(expected: "'\"' to close the string"),
            line: 1,
            column: 5,
            offset: 4
        ),
        Invalid(text: "\"a\nb\"", reason: .controlCharacterInString("\n"), line: 1, column: 3, offset: 2),
        Invalid(text: "\"a\tb\"", reason: .controlCharacterInString("\t"), line: 1, column: 3, offset: 2),
        Invalid(text: #""\x""#, reason: .invalidEscape("x"), line: 1, column: 2, offset: 1),
        Invalid(text: #""\é""#, reason: .invalidEscape("é"), line: 1, column: 2, offset: 1),
        Invalid(text: #""\u12G4""#, reason: .invalidUnicodeEscape("12G4"), line: 1, column: 4, offset: 3),
        Invalid(text: #""\u12"#, reason: .invalidUnicodeEscape("12"), line: 1, column: 4, offset: 3),
        Invalid(text: #""\ud800""#, reason: .unpairedSurrogate(0xD800), line: 1, column: 2, offset: 1),
        Invalid(text: #""\udc00""#, reason: .unpairedSurrogate(0xDC00), line: 1, column: 2, offset: 1),
        Invalid(text: #""x\ud83d\u0041""#, reason: .unpairedSurrogate(0xD83D), line: 1, column: 3, offset: 2),
        Invalid(text: #"{"a":1,"a":2}"#, reason: .duplicateKey("a"), line: 1, column: 8, offset: 7),
        Invalid(
            text: "[1] 2",
            reason: .unexpectedCharacter("2", expected: "the end of the text"),
            line: 1,
            column: 5,
            offset: 4
        ),
        Invalid(
            text: "{\n  \"a\": [\n    tru\n  ]\n}",
            reason: .unexpectedCharacter("\n", expected: "'true'"),
            line: 3,
            column: 8,
            offset: 18
        ),
        // Columns count characters, not bytes: "é" is two bytes but one column.
        Invalid(
            text: "[\"é\", x]",
            reason: .unexpectedCharacter("x", expected: "a JSON value"),
            line: 1,
            column: 7,
            offset: 7
        ),
        Invalid(
            text: "[\"😀\"] ☃",
            reason: .unexpectedCharacter("☃", expected: "the end of the text"),
            line: 1,
            column: 7,
            offset: 9
        ),
    ]

    @Test("invalid text is rejected with the reason and its position", arguments: invalid)
    func rejects(_ case: Invalid) {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: `case`.text) }
        #expect(error?.reason == `case`.reason)
        #expect(error?.line == `case`.line)
        #expect(error?.column == `case`.column)
        #expect(error?.offset == `case`.offset)
    }

    @Test("the error message says where and what was expected")
    func messages() throws {
        let error = try #require(#expect(throws: JSONParseError.self) { try JSONValue(parsing: "{\n  \"a\" 1\n}") })
        #expect(error.description == "invalid JSON at line 2, column 7: expected ':' after an object key, found '1'")
        let control = try #require(#expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"\u{1}\"") })
        #expect(control.description.contains("control character U+0001 in a string; escape it"))
        let duplicate = try #require(#expect(throws: JSONParseError.self) { try JSONValue(parsing: #"{"k":1,"k":1}"#) })
        #expect(duplicate.description.contains(#"key "k" appears twice"#))
        let end = try #require(#expect(throws: JSONParseError.self) { try JSONValue(parsing: "[") })
        #expect(end.description == "invalid JSON at line 1, column 2: expected a JSON value, found the end of the text")
    }

    static func nested(_ depth: Int) -> String {
        repeated("[", depth) + repeated("]", depth)
    }

    @Test("nesting is accepted up to the limit and rejected beyond it, without exhausting the stack")
    func nestingLimit() throws {
        let limit = JSONValue.maxParsingDepth
        var value = try JSONValue(parsing: Self.nested(limit))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == limit)

        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: Self.nested(limit + 1)) }
        #expect(error?.reason == .nestingTooDeep(limit: limit))
        #expect(error?.offset == limit)
        let hostile = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: repeated(#"{"a":"#, 100_000))
        }
        #expect(hostile?.reason == .nestingTooDeep(limit: limit))
    }
}
