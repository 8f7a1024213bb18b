import ArgumentParser
import DBusCore
import GVariantText

/// One `--hint` value: `NAME=VALUE` with VALUE in GVariant text form (`urgency=byte 2`, `x-test=<{'a': <[1, 2]>}>`),
/// or notify-send's `TYPE:NAME:VALUE` with TYPE one of int, double, string, byte, boolean (VALUE as plain text) or
/// variant (VALUE in GVariant text).
struct HintSpec: Sendable, Equatable {
    static let form =
        "NAME=VALUE (VALUE in GVariant text, e.g. x-level=5 or x-tag='a') or TYPE:NAME:VALUE "
        + "(TYPE int, double, string, byte, boolean or variant)"
    static let notifySendTypes = ["int", "double", "string", "byte", "boolean", "variant"]

    /// The hints the bridge sets itself, and what to do instead.
    static let ownedHints: [String: String] = [
        "urgency": "use --urgency low|normal|critical", "desktop-entry": "use --desktop-entry ID",
        "image-path": "use --image PATH", "image_path": "use --image PATH", "sound-name": "use --sound NAME",
        "sound-file": "use --sound PATH", "suppress-sound": "use --sound none", "resident": "use --resident",
        "transient": "use --transient", "sender-pid": "leave it out (the bridge sends its own process id)",
        "x-kde-reply-placeholder-text": "use --action id=Title,text-input,placeholder=Text",
        "x-kde-reply-submit-button-text": "use --action id=Title,text-input=SubmitTitle",
    ]

    /// The error for a hint the bridge sets itself (one ``PostOptions`` could not turn into its option).
    func ownedError() -> ValidationError? {
        let instead =
            Self.ownedHints[name]
            ?? (name.hasPrefix("x-kde-reply-")
                ? "use --action id=Title,text-input[=SubmitTitle][,placeholder=Text]"
                : nil)
        guard let instead else { return nil }
        return ValidationError("--hint '\(name)': the bridge sets this hint itself; \(instead)")
    }

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
                guard let flag = Bool(raw.lowercased()) else { throw invalid("'\(raw)' is not true or false") }
                value = .boolean(flag)
            case "variant":
                do {
                    value = try GVariantText.parse(raw)
                } catch {
                    throw invalid("'\(raw)' is not GVariant text (strings need quotes: 'text'): \(error.message)")
                }
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
