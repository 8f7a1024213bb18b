extension JSONValue {
    /// The value as compact JSON text: no whitespace, object keys sorted, so equal values give equal text.
    ///
    /// Strings escape `"`, `\` and the control characters U+0000–U+001F (as `\n`, `\t`, … where JSON has a short
    /// form, `\u00XX` otherwise); everything else, characters outside the Basic Multilingual Plane included, is written
    /// as UTF-8. Integral numbers of magnitude below 2^53 are written without a fraction (`3`, not `3.0`); other numbers
    /// use the shortest form that reads back to the same `Double`. NaN and the infinities, which JSON cannot express,
    /// are written as `null`.
    public var jsonText: String {
        var output: [UInt8] = []
        JSONWriter.write(self, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

/// Writes JSON text as UTF-8 bytes.
enum JSONWriter {
    /// Integers up to this magnitude are exactly representable as `Double`, so they can be printed as integers.
    private static let largestExactInteger = 9_007_199_254_740_992.0

    static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number):
            writeNumber(number, to: &output)
        case .string(let string):
            writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(members[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        if number == 0 {
            output.append(contentsOf: (number.sign == .minus ? "-0" : "0").utf8)
        } else if number.rounded(.towardZero) == number, abs(number) < largestExactInteger {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            // Swift's description is the shortest round-tripping form and is already valid JSON ("1e-05", "1.5e+300").
            output.append(contentsOf: number.description.utf8)
        }
    }

    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default:
                // Multi-byte UTF-8 sequences never contain bytes below 0x80, so they pass through whole.
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
