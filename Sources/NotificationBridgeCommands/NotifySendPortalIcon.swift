import DBusCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `-i` as the portal's `icon`, serialized as GIO serializes the icon libnotify makes of it: a URI or an existing
/// file is read and sent as its bytes (`('bytes', <ay>)`), anything else is a themed icon name sent with its symbolic
/// variant (`('themed', <['name', 'name-symbolic']>)`).
enum NotifySendPortalIcon {
    /// The icon value for `icon`.
    ///
    /// - Throws: ``NotifySendShowFailure`` when a URI or a file cannot be read, or is empty.
    static func value(for icon: String) throws(NotifySendShowFailure) -> DBusValue {
        let path: String
        if let scheme = scheme(of: icon) {
            guard scheme.lowercased() == "file" else {
                throw NotifySendShowFailure(
                    message: "the icon \(icon) is a \(scheme) URI; give an icon name, a file or a file:// URI")
            }
            path = filePath(ofURI: icon)
        } else if access(icon, F_OK) == 0 {
            path = icon
        } else {
            return .structure([.string("themed"), .variant(.strings(themedNames(icon)))])
        }
        let bytes = try contents(of: path)
        guard !bytes.isEmpty else { throw NotifySendShowFailure(message: "Failed to read the file \(path)") }
        return .structure([.string("bytes"), .variant(.array(element: "y", bytes.map(DBusValue.byte)))])
    }

    /// The names GIO gives a themed icon made from `name`: the name, then its symbolic variant (or, for a symbolic
    /// name, the plain one).
    static func themedNames(_ name: String) -> [String] {
        let suffix = "-symbolic"
        return [name, name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name + suffix]
    }

    /// The scheme of `text` when it is a URI (`scheme:`, the scheme a letter then letters, digits, `+`, `-`, `.`).
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let allowed = scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
        return allowed ? String(scheme) : nil
    }

    /// The local path of a `file:` URI, percent-decoded, without a `localhost` host.
    static func filePath(ofURI uri: String) -> String {
        var rest = Substring(uri.drop { $0 != ":" }.dropFirst())
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of the file at `path`.
    private static func contents(of path: String) throws(NotifySendShowFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path)
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    private static func unreadable(_ path: String) -> NotifySendShowFailure {
        NotifySendShowFailure(
            message: "cannot read the icon file \(path): \(String(cString: strerror(errno))); give an icon name or a "
                + "readable image file")
    }
}
