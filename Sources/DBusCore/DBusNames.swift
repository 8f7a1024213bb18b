/// Checks for the names D-Bus uses: bus names, interface names and member names.
///
/// Checked in Swift, before anything reaches libdbus, so that a bad name from a caller becomes an error instead of a
/// libdbus assertion.
public enum DBusNames {
    static func isNameByte(_ byte: UInt8, allowDigit: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return allowDigit
        default:
            return false
        }
    }

    /// Whether `name` is a valid interface name (also the rule for error names): two or more dot-separated elements
    /// of `[A-Za-z_][A-Za-z0-9_]*`, at most 255 bytes.
    public static func isValidInterface(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= 255 else { return false }
        return isDotted(utf8, start: { isNameByte($0, allowDigit: false) }, rest: { isNameByte($0, allowDigit: true) })
    }

    /// Whether `name` is a valid member (method, signal or property) name.
    public static func isValidMember(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count <= 255, isNameByte(first, allowDigit: false) else { return false }
        return utf8.allSatisfy { isNameByte($0, allowDigit: true) }
    }

    /// Whether `name` is a valid bus name: a unique name (`:1.42`) or a well-known name (`org.example.App`).
    public static func isValidBusName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= 255 else { return false }
        let rest = { (byte: UInt8) in isNameByte(byte, allowDigit: true) || byte == UInt8(ascii: "-") }
        if utf8.first == UInt8(ascii: ":") {
            // The elements of a unique name may start with a digit.
            return isDotted(utf8.dropFirst(), start: rest, rest: rest)
        }
        return isDotted(
            utf8, start: { isNameByte($0, allowDigit: false) || $0 == UInt8(ascii: "-") }, rest: rest)
    }

    /// Whether `bytes` are two or more elements separated by dots, none empty, each a `start` byte then `rest` bytes:
    /// read once, without copying the name or splitting it (every call a connection makes checks its names).
    private static func isDotted<Bytes: Sequence<UInt8>>(
        _ bytes: Bytes, start: (UInt8) -> Bool, rest: (UInt8) -> Bool
    ) -> Bool {
        var elements = 1
        var atElementStart = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !atElementStart else { return false }
                elements += 1
                atElementStart = true
            } else if atElementStart {
                guard start(byte) else { return false }
                atElementStart = false
            } else {
                guard rest(byte) else { return false }
            }
        }
        return !atElementStart && elements >= 2
    }

    static func checkBusName(_ name: String) throws(DBusFailure) {
        guard isValidBusName(name) else {
            throw .invalidArgs(
                "'\(name)' is not a valid bus name: use a unique name like ':1.42' or a dotted name "
                    + "like 'org.example.App'")
        }
    }

    static func checkInterface(_ name: String) throws(DBusFailure) {
        guard isValidInterface(name) else {
            throw .invalidArgs(
                "'\(name)' is not a valid interface name: use two or more dot-separated elements "
                    + "of letters, digits and '_', not starting with a digit")
        }
    }

    static func checkMember(_ name: String) throws(DBusFailure) {
        guard isValidMember(name) else {
            throw .invalidArgs(
                "'\(name)' is not a valid member name: use letters, digits and '_', "
                    + "not starting with a digit")
        }
    }
}
