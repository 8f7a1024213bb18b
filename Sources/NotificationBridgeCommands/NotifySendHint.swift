import DBusCore
import GVariantText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `-h TYPE:NAME:VALUE` of notify-send, read by notify-send's rules: TYPE `string`, `int`, `double`, `byte`,
/// `boolean` or `variant` in any case; an `int` or `double` must start with a digit and is read as far as it is a
/// number; a `byte` is a number from 0 to 255; a `boolean` is true for `true` (any case) or a non-zero number and
/// false otherwise; a `variant` is GVariant text.
struct NotifySendHint: Equatable {
    var name: String
    var value: DBusValue

    /// Reads a hint.
    ///
    /// - Throws: ``NotifySendArguments/Mistake`` with notify-send's message.
    init(parsing text: String) throws(NotifySendArguments.Mistake) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw NotifySendArguments.Mistake(message: "Invalid hint syntax specified. Use TYPE:NAME:VALUE.")
        }
        let (type, name, raw) = (parts[0], parts[1], parts[2])
        let unreadable = NotifySendArguments.Mistake(
            message: "Value \"\(raw)\" of hint \"\(name)\" could not be parsed as type \"\(type)\".")
        let startsWithDigit = raw.first.map { ("0"..."9").contains($0) } ?? false
        self.name = name
        switch type.lowercased() {
        case "string":
            value = .string(raw)
        case "int":
            guard startsWithDigit else { throw unreadable }
            value = .int32(Int32(truncatingIfNeeded: Self.leadingNumber(raw)))
        case "double":
            guard startsWithDigit else { throw unreadable }
            value = .double(raw.withCString { strtod($0, nil) })
        case "byte":
            let number = Int32(truncatingIfNeeded: Self.leadingNumber(raw))
            guard let byte = UInt8(exactly: number) else { throw unreadable }
            value = .byte(byte)
        case "boolean":
            value = .boolean(raw.lowercased() == "true" || (startsWithDigit && Self.leadingNumber(raw) != 0))
        case "variant":
            guard let parsed = try? GVariantText.parse(raw) else { throw unreadable }
            value = parsed
        default:
            throw NotifySendArguments.Mistake(
                message: "Invalid hint type \"\(type)\". Valid types are int, double, string and byte.")
        }
    }

    /// The decimal number `text` starts with (after spaces and a sign, as `strtoull` reads it).
    private static func leadingNumber(_ text: String) -> UInt64 {
        text.withCString { UInt64(strtoull($0, nil, 10)) }
    }
}
