/// A D-Bus object path such as `/org/freedesktop/Notifications`, checked when it is made.
public struct DBusObjectPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path text.
    public let rawValue: String

    /// Makes an object path, throwing when the text breaks the specification's rules: it starts with `/`, its elements
    /// are made of `[A-Za-z0-9_]` and are not empty, and only the root path ends with `/`.
    public init(_ text: String) throws(DBusFailure) {
        guard Self.isValid(text) else {
            throw DBusFailure(
                name: DBusFailure.Name.invalidArgs,
                message: "'\(text)' is not a valid object path: start with '/', separate elements with '/', "
                    + "use only A-Z, a-z, 0-9 and '_', and do not end with '/'"
            )
        }
        self.rawValue = text
    }

    /// Makes an object path from a literal; an invalid literal is a programming error and traps.
    public init(stringLiteral value: String) {
        precondition(Self.isValid(value), "invalid D-Bus object path literal '\(value)'")
        self.rawValue = value
    }

    init(unchecked text: String) {
        self.rawValue = text
    }

    /// The root path, `/`.
    public static let root = DBusObjectPath(unchecked: "/")

    /// The path as text.
    public var description: String { rawValue }

    /// Orders paths by their text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `self` lies strictly below `ancestor` (`/a/b` is below `/a` and below `/`).
    public func isDescendant(of ancestor: DBusObjectPath) -> Bool {
        if ancestor.rawValue == "/" { return rawValue != "/" }
        return rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    /// Whether `text` is a valid object path.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "/") else { return false }
        if utf8.count == 1 { return true }
        guard utf8.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = true
        for byte in utf8.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard DBusNames.isNameByte(byte, allowDigit: true) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }
}
