extension Unicode.Scalar {
    /// The code point as `U+XXXX`, with at least four hexadecimal digits.
    var codePoint: String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// How error messages show a character: a printable ASCII character as itself, other visible characters with
    /// their code point, and characters that would be invisible or confusing (controls, spaces, format characters) by
    /// code point alone.
    var displayName: String {
        if value > 0x20 && value < 0x7F { return "'\(self)'" }
        switch properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
            .unassigned:
            return value == 0x20 ? "a space (U+0020)" : codePoint
        default:
            return "'\(self)' (\(codePoint))"
        }
    }
}
