extension JSONValue {
    /// How deeply arrays and objects may nest in text given to ``init(parsing:)``.
    ///
    /// The parser is recursive; the limit keeps hostile input from exhausting the stack.
    public static let maxParsingDepth = 256

    /// Parses JSON text (RFC 8259) holding exactly one value, with optional whitespace around it.
    ///
    /// Strict: no comments, no trailing commas, no leading zeros, no raw control characters in strings, no unpaired
    /// surrogate escapes, and no key repeated within one object (a repeated key is almost always a mistake, and JSON
    /// parsers disagree on which one wins). Keys are compared as Swift strings, so two spellings of the same text in
    /// different Unicode normal forms count as the same key.
    ///
    /// - Throws: ``JSONParseError`` with the reason and its line, column and byte offset.
    public init(parsing text: String) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }
}

/// A recursive-descent parser over UTF-8 bytes.
///
/// Works on bytes rather than characters: every byte with a meaning in JSON is ASCII, and a multi-byte UTF-8 sequence
/// never contains an ASCII byte, so slicing between ASCII delimiters always yields whole characters.
struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count {
            throw unexpected(expected: "the end of the text")
        }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw unexpected(expected: "a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", value: .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", value: .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(expected: "a JSON value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw unexpected(expected: members.isEmpty ? "a string key or '}'" : "a string key after ','")
            }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            try expect(":", description: "':' after an object key")
            skipWhitespace()
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil {
                throw error(.duplicateKey(key), at: keyOffset)
            }
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                continue
            }
            try expect("}", description: "',' or '}' after an object member")
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                // A value must follow: `[1,]` is not JSON.
                if peek() == UInt8(ascii: "]") { throw unexpected(expected: "a value after ','") }
                continue
            }
            try expect("]", description: "',' or ']' after an array element")
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        guard depth < JSONValue.maxParsingDepth else {
            throw error(.nestingTooDeep(limit: JSONValue.maxParsingDepth), at: position)
        }
        depth += 1
    }

    private mutating func parseLiteral(_ word: String, value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in word.utf8 {
            guard peek() == expected else { throw unexpected(expected: "'\(word)'") }
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) {
                throw unexpected(expected: "'.', 'e' or the end of the number (JSON numbers have no leading zeros)")
            }
        } else {
            try digits(after: "'-'")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            try digits(after: "'.'")
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            try digits(after: "the exponent marker")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // The grammar above accepts only text that Double's parser reads; overflow gives infinity.
        guard let number = Double(text), number.isFinite else {
            throw error(.numberOutOfRange(text), at: start)
        }
        return .number(number)
    }

    /// Consumes one or more decimal digits.
    private mutating func digits(after what: String) throws(JSONParseError) {
        guard let first = peek(), isDigit(first) else { throw unexpected(expected: "a digit after \(what)") }
        position += 1
        while let next = peek(), isDigit(next) { position += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw unexpected(expected: "'\"' to close the string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw error(.controlCharacterInString(Unicode.Scalar(byte)), at: position)
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        guard let byte = peek() else { throw unexpected(expected: "an escape character after '\\'") }
        let simple: UInt8? =
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            utf8.append(simple)
            position += 1
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw error(.invalidEscape(scalar(at: position)), at: position - 1)
        }
        let escapeStart = position - 1
        position += 1
        let unit = try hexQuad()
        let scalarValue: UInt32
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by an escaped low surrogate; together they make one scalar.
            guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                throw error(.unpairedSurrogate(unit), at: escapeStart)
            }
            position += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate(unit), at: escapeStart) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(.unpairedSurrogate(unit), at: escapeStart)
        default:
            scalarValue = UInt32(unit)
        }
        // Every value outside the surrogate range is a valid scalar.
        utf8.append(contentsOf: String(Unicode.Scalar(scalarValue)!).utf8)
    }

    /// Reads the four hexadecimal digits of a `\u` escape.
    private mutating func hexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for index in 0..<4 {
            guard let byte = peek(offset: index), let digit = hexValue(byte) else {
                let end = min(position + 4, bytes.count)
                let found = String(decoding: bytes[position..<end], as: UTF8.self)
                throw error(.invalidUnicodeEscape(found), at: position)
            }
            value = value << 4 | UInt16(digit)
        }
        position += 4
        return value
    }

    private mutating func expect(_ character: Unicode.Scalar, description: String) throws(JSONParseError) {
        guard peek() == UInt8(ascii: character) else { throw unexpected(expected: description) }
        position += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            position += 1
        }
    }

    private func peek(offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The whole character starting at a byte offset (which is always at a scalar boundary here).
    private func scalar(at offset: Int) -> Unicode.Scalar {
        let end = min(offset + 4, bytes.count)
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    /// An error for the character at the current position, or for the end of the text.
    private func unexpected(expected: String) -> JSONParseError {
        guard position < bytes.count else { return error(.unexpectedEndOfInput(expected: expected), at: position) }
        return error(.unexpectedCharacter(scalar(at: position), expected: expected), at: position)
    }

    private func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Columns count scalars: skip UTF-8 continuation bytes.
        let column = 1 + bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count
        return JSONParseError(reason: reason, offset: offset, line: line, column: column)
    }
}
