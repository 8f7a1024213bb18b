import Foundation
import NotificationModel
import Testing

@Suite("JSONValue.jsonText")
struct JSONValueSerializationTests {
    static let scalarTexts: [(value: JSONValue, text: String)] = [
        (JSONValue.null, "null"), (true, "true"), (false, "false"), (0, "0"), (.number(-0.0), "-0"), (42, "42"),
        (-7, "-7"), (1.5, "1.5"), (0.1, "0.1"), (1e-5, "1e-05"), (9_007_199_254_740_991, "9007199254740991"),
        (.number(.nan), "null"), (.number(.infinity), "null"), (.number(-.infinity), "null"), ("", #""""#),
    ]

    @Test("scalars are written as compact JSON", arguments: scalarTexts)
    func scalars(value: JSONValue, text: String) {
        #expect(value.jsonText == text)
    }

    static let escapes: [(string: String, text: String)] = [
        ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
        ("\u{08}", #""\b""#), ("\u{0C}", #""\f""#), ("\u{0}", #""\u0000""#), ("\u{1}", #""\u0001""#),
        ("\u{1F}", #""\u001f""#), ("\u{7F}", "\"\u{7F}\""), ("/", #""/""#), ("é", #""é""#),
        ("😀", #""😀""#), ("\u{2028}", "\"\u{2028}\""), ("a\"b\\c\nd", #""a\"b\\c\nd""#),
    ]

    @Test("strings escape quotes, backslashes and control characters, and nothing else", arguments: escapes)
    func stringEscaping(string: String, text: String) {
        #expect(JSONValue.string(string).jsonText == text)
    }

    @Test("containers are compact and object keys are sorted")
    func containers() {
        let value: JSONValue = ["b": [1, "two", nil, [:], []], "a": ["z": true, "y": false], "": 0]
        #expect(value.jsonText == #"{"":0,"a":{"y":false,"z":true},"b":[1,"two",null,{},[]]}"#)
    }

    static let samples: [JSONValue] = [
        .null, true, 0, -0.5, 123_456_789, 1e300, .number(.leastNonzeroMagnitude), 1.7976931348623157e308,
        9_007_199_254_740_993.0,
        "plain", "tab\tquote\"slash\\nul\u{0}bell\u{7}", "𝄞 non-BMP 😀 and é", [], [:],
        ["nested": [["deep": [1, [2, [3, ["four": nil]]]]]], "list": [true, false, "x"]],
    ]

    @Test("written text parses back to the same value", arguments: samples)
    func roundTripsThroughParser(value: JSONValue) throws {
        #expect(try JSONValue(parsing: value.jsonText) == value)
    }

    @Test("every control character round-trips", arguments: 0..<0x20)
    func controlCharacters(code: Int) throws {
        let string = "a" + String(Unicode.Scalar(UInt8(code))) + "b"
        let text = JSONValue.string(string).jsonText
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "\(text) should hold no raw control character")
        #expect(try JSONValue(parsing: text) == .string(string))
    }

    @Test("Foundation reads the written text as the same value", arguments: samples)
    func foundationReadsOutput(value: JSONValue) throws {
        let wrapped = JSONValue.array([value])
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(wrapped.jsonText.utf8))
        #expect(decoded == wrapped)
    }
}

@Suite("JSONValue Codable")
struct JSONValueCodableTests {
    @Test("decodes plain JSON, not a tagged enum, keeping booleans apart from numbers")
    func decodesPlainJSON() throws {
        let value = try decode(JSONValue.self, from: #"{"a":[1,true,null,"s",{"b":2.5}],"c":false,"d":0}"#)
        #expect(value == ["a": [1, true, nil, "s", ["b": 2.5]], "c": false, "d": 0])
    }

    @Test("encodes plain JSON that the model's parser reads back")
    func encodesPlainJSON() throws {
        let value: JSONValue = ["list": [1, 2.25, "x", nil, false], "empty": [:]]
        #expect(try encodedJSON(value) == value)
        #expect(try roundTrip(value) == value)
    }
}
