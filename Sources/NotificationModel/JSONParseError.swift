/// Why ``JSONValue/init(parsing:)`` rejected its input, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The text ended where more was needed; `expected` describes what.
        case unexpectedEndOfInput(expected: String)
        /// A character appeared where it is not allowed; `expected` describes what was allowed there.
        case unexpectedCharacter(Unicode.Scalar, expected: String)
        /// A string holds a raw control character (U+0000–U+001F), which JSON requires to be escaped.
        case controlCharacterInString(Unicode.Scalar)
        /// A backslash is followed by a character that is not a JSON escape.
        case invalidEscape(Unicode.Scalar)
        /// `\u` is not followed by four hexadecimal digits; the associated value is the text that followed.
        case invalidUnicodeEscape(String)
        /// A UTF-16 surrogate escape (`\uD800`–`\uDFFF`) without its partner, which no string can hold.
        case unpairedSurrogate(UInt16)
        /// A number too large for a `Double`; the associated value is its text.
        case numberOutOfRange(String)
        /// An object has the same key twice.
        case duplicateKey(String)
        /// Arrays and objects are nested deeper than ``JSONValue/maxParsingDepth``.
        case nestingTooDeep(limit: Int)
    }

    /// What was wrong.
    public var reason: Reason

    /// Where: the offset in UTF-8 bytes from the start of the text, counting from 0.
    public var offset: Int

    /// Where: the line, counting from 1.
    public var line: Int

    /// Where: the column in Unicode scalars, counting from 1.
    public var column: Int

    /// Makes an error; ``JSONValue/init(parsing:)`` is the usual source.
    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Says where the problem is and what it is, for example
    /// `invalid JSON at line 1, column 9: expected ',' or '}' after an object member, found 'x'`.
    public var description: String {
        "invalid JSON at line \(line), column \(column): \(reasonDescription)"
    }

    private var reasonDescription: String {
        switch reason {
        case .unexpectedEndOfInput(let expected):
            "expected \(expected), found the end of the text"
        case .unexpectedCharacter(let scalar, let expected):
            "expected \(expected), found \(scalar.displayName)"
        case .controlCharacterInString(let scalar):
            "control character \(scalar.displayName) in a string; escape it (\\n, \\t, \\u00XX)"
        case .invalidEscape(let scalar):
            #"invalid escape "\"# + String(scalar) + #"" in a string; use one of \" \\ \/ \b \f \n \r \t \uXXXX"#
        case .invalidUnicodeEscape(let text):
            #"\u must be followed by four hexadecimal digits, found ""# + text + #"""#
        case .unpairedSurrogate(let unit):
            "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16, uppercase: true)); "
                + "a surrogate escape needs its partner"
        case .numberOutOfRange(let text):
            "number \(text) is too large to represent"
        case .duplicateKey(let key):
            #"key ""# + key + #"" appears twice in one object; keep one"#
        case .nestingTooDeep(let limit):
            "arrays and objects are nested more than \(limit) deep"
        }
    }
}
