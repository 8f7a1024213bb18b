import ArgumentParser
import DBusCore
import GVariantText

/// One `--hint` value: `NAME=VALUE` with VALUE in GVariant text form (`urgency=byte 2`, `x-test=<{'a': <[1, 2]>}>`),
/// or notify-send's `TYPE:NAME:VALUE` with TYPE one of int, double, string, byte, boolean (VALUE as plain text).
struct HintSpec: Sendable, Equatable {
    static let form = "NAME=VALUE (VALUE in GVariant text, e.g. x-level=5 or x-tag='a') or TYPE:NAME:VALUE "
        + "(TYPE int, double, string, byte or boolean)"
    static let notifySendTypes = ["int", "double", "string", "byte", "boolean"]

    var name: String
    var value: DBusValue

    init(parsing text: String) throws {
        func invalid(_ why: String) -> ValidationError {
            ValidationError("--hint '\(text)': \(why); use \(Self.form)")
        }
        if let colon = text.firstIndex(of: ":"), Self.notifySendTypes.contains(String(text[..<colon])) {
            let type = String(text[..<colon])
            let rest = text[text.index(after: colon)...]
            guard let second = rest.firstIndex(of: ":") else { throw invalid("no ':' between the name and the value") }
            name = String(rest[..<second])
            let raw = String(rest[rest.index(after: second)...])
            switch type {
            case "int":
                guard let number = Int32(raw) else { throw invalid("'\(raw)' is not a 32-bit integer") }
                value = .int32(number)
            case "double":
                guard let number = Double(raw), number.isFinite else { throw invalid("'\(raw)' is not a number") }
                value = .double(number)
            case "byte":
                guard let number = UInt8(raw) else { throw invalid("'\(raw)' is not a byte (0-255)") }
                value = .byte(number)
            case "boolean":
                guard let flag = Bool(raw) else { throw invalid("'\(raw)' is not true or false") }
                value = .boolean(flag)
            default:
                value = .string(raw)
            }
        } else {
            guard let equals = text.firstIndex(of: "=") else { throw invalid("no '=' between the name and the value") }
            name = String(text[..<equals])
            let valueText = String(text[text.index(after: equals)...])
            do {
                value = try GVariantText.parse(valueText)
            } catch {
                throw invalid("the value is not GVariant text (strings need quotes: 'text'): \(error.message)")
            }
        }
        guard !name.isEmpty else { throw invalid("the name is empty") }
    }
}
