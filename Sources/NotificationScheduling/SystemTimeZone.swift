import FoundationEssentials
import Glibc

/// The system's time zone, read afresh at each call, the way the C library finds it: `TZ` when it names a zone (with
/// or without a leading `:`), else the zone `/etc/localtime` links to, else `/etc/timezone` (Debian's name of it).
///
/// Read afresh because a daemon runs for days, and the user may move to another zone meanwhile.
package enum SystemTimeZone {
    /// Where the zone files are; a link to `<here>/Europe/Paris` means `Europe/Paris`.
    static let zoneDirectories = ["/usr/share/zoneinfo/", "/usr/lib/zoneinfo/", "/usr/share/lib/zoneinfo/"]

    /// The zone now; GMT when nothing names one (as the C library does).
    package static func read(environment: [String: String] = ProcessInfo.processInfo.environment) -> TimeZoneRules {
        if let value = environment["TZ"] {
            let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            if name.isEmpty { return .utc }
            if let zone = TimeZoneRules(identifier: zoneName(ofFile: name) ?? name) { return zone }
        }
        if let name = linkedZoneName(), let zone = TimeZoneRules(identifier: name) { return zone }
        if let name = debianZoneName(), let zone = TimeZoneRules(identifier: name) { return zone }
        return .utc
    }

    /// The zone name within a path under one of ``zoneDirectories``; `nil` for another path.
    static func zoneName(ofFile path: String) -> String? {
        for directory in zoneDirectories where path.hasPrefix(directory) {
            return String(path.dropFirst(directory.count))
        }
        return nil
    }

    /// The zone `/etc/localtime` links to, following the links (`/usr/share/zoneinfo/Europe/Paris` may itself be a
    /// link to another name of the same zone: the first name found is kept).
    private static func linkedZoneName() -> String? {
        var path = "/etc/localtime"
        for _ in 0..<8 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            var target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !target.hasPrefix("/") {
                let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                    .joined(separator: "/")
                target = directory + "/" + target
            }
            target = normalized(target)
            if let name = zoneName(ofFile: target) { return name }
            path = target
        }
        return nil
    }

    /// `/etc/timezone`'s first line.
    private static func debianZoneName() -> String? {
        guard let file = fopen("/etc/timezone", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let name = line.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// `path` without `.` and `..` components.
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
