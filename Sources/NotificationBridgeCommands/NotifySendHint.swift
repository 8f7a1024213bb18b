import DBusCore
import GVariantText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `-h TYPE:NAME:VALUE` of notify-send, read by libnotify's rules: TYPE `string`, `int`, `double`, `byte`,
/// `boolean` or `variant` in any case; an `int` or `double` must start with a digit and is read as far as it is a
/// number; a `byte` is a number from 0 to 255, in hexadecimal after `0x`; a `boolean` is true for `true` (any case) or
/// a non-zero number and false otherwise; a `variant` is GVariant text; an empty `string` sets no hint.
struct NotifySendHint: Equatable {
    var name: String
    /// The hint's value; `nil` for an empty string, which libnotify leaves out.
    var value: DBusValue?

    /// Reads a hint.
    ///
    /// - Throws: ``NotifySendArguments/Mistake`` with libnotify's message.
    init(parsing text: String) throws(NotifySendArguments.Mistake) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[1].isEmpty else {
            throw NotifySendArguments.Mistake(message: "Invalid hint syntax specified. Use TYPE:NAME:VALUE.")
        }
        let (type, name, raw) = (parts[0], parts[1], parts[2])
        let unreadable = NotifySendArguments.Mistake(
            message: "Value \"\(raw)\" of hint \"\(name)\" could not be parsed as type \"\(type)\".")
        let startsWithDigit = raw.first.map { ("0"..."9").contains($0) } ?? false
        self.name = name
        switch type.lowercased() {
        case "string":
            value = raw.isEmpty ? nil : .string(raw)
        case "int":
            guard startsWithDigit else { throw unreadable }
            value = .int32(Int32(truncatingIfNeeded: Self.leadingNumber(raw, base: 10)))
        case "double":
            guard startsWithDigit else { throw unreadable }
            value = .double(raw.withCString { strtod($0, nil) })
        case "byte":
            let number = Int32(truncatingIfNeeded: Self.leadingNumber(raw, base: raw.hasPrefix("0x") ? 16 : 10))
            guard let byte = UInt8(exactly: number) else { throw unreadable }
            value = .byte(byte)
        case "boolean":
            value = .boolean(raw.lowercased() == "true" || (startsWithDigit && Self.leadingNumber(raw, base: 10) != 0))
        case "variant":
            guard let parsed = try? GVariantText.parse(raw) else { throw unreadable }
            value = parsed
        default:
            throw NotifySendArguments.Mistake(
                message: "Invalid hint type \"\(type)\". Valid types are int, double, string and byte.")
        }
    }

    /// The number `text` starts with in `base` (after spaces and a sign, as `strtoull` reads it).
    private static func leadingNumber(_ text: String, base: Int32) -> UInt64 {
        text.withCString { UInt64(strtoull($0, nil, base)) }
    }
}
