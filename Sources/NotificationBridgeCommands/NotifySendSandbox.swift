#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether notify-send posts through the desktop portal, and under which app, as libnotify decides it:
/// `NOTIFY_IGNORE_PORTAL` set never does, `NOTIFY_FORCE_PORTAL` set always does, and otherwise a Flatpak app (one whose
/// `/.flatpak-info` names it) or a snap (one whose control group names it) does.
struct NotifySendSandbox: Equatable {
    /// Whether to try the portal first (libnotify falls back to the notification server when it is not there).
    var usesPortal: Bool
    /// The Flatpak app's id, from `/.flatpak-info`.
    var flatpakApp: String?
    /// The snap and its app, from the process's control group.
    var snap: (name: String, app: String)?

    /// The app part of the portal's notification ids: `snap.NAME_APP`, or `flatpak.ID` — `flatpak.(null)` outside a
    /// sandbox, as libnotify writes a missing id.
    var portalAppID: String {
        if let snap { return "snap.\(snap.name)_\(snap.app)" }
        return "flatpak.\(flatpakApp ?? "(null)")"
    }

    /// The `desktop-entry` libnotify names for a snap's notification that names none.
    var snapDesktopEntry: String? { snap.map { "\($0.name)_\($0.app)" } }

    static func == (lhs: NotifySendSandbox, rhs: NotifySendSandbox) -> Bool {
        lhs.usesPortal == rhs.usesPortal && lhs.flatpakApp == rhs.flatpakApp && lhs.snap?.name == rhs.snap?.name
            && lhs.snap?.app == rhs.snap?.app
    }

    /// The decision for this process: its environment, `/.flatpak-info` and `/proc/self/cgroup`.
    static func current() -> NotifySendSandbox {
        decide(
            ignorePortal: getenv("NOTIFY_IGNORE_PORTAL") != nil, forcePortal: getenv("NOTIFY_FORCE_PORTAL") != nil,
            flatpakInfo: readFile("/.flatpak-info"), cgroup: readFile("/proc/self/cgroup"))
    }

    /// The decision for these inputs (the text of `/.flatpak-info` and of `/proc/self/cgroup`, `nil` when absent).
    static func decide(ignorePortal: Bool, forcePortal: Bool, flatpakInfo: String?, cgroup: String?)
        -> NotifySendSandbox
    {
        let flatpakApp = flatpakInfo.flatMap(appID(fromFlatpakInfo:))
        let snap = cgroup.flatMap(snap(fromControlGroups:))
        let usesPortal = !ignorePortal && (forcePortal || flatpakApp != nil || snap != nil)
        return NotifySendSandbox(usesPortal: usesPortal, flatpakApp: flatpakApp, snap: snap)
    }

    /// The `name` of the `[Runtime]` group, or else of `[Application]`, of a Flatpak info key file.
    static func appID(fromFlatpakInfo text: String) -> String? {
        var groups: [String: [String: String]] = [:]
        var group = ""
        for line in text.split(separator: "\n") {
            let line = line.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<equals].trimmingTrailingSpaces
                groups[group, default: [:]][key] = String(line[line.index(after: equals)...]).trimmingLeadingSpaces
            }
        }
        return groups["Runtime"] != nil ? groups["Runtime"]?["name"] : groups["Application"]?["name"]
    }

    /// The snap and app a process's control groups (`ID:CONTROLLERS:PATH` lines) name, as libnotify reads them: the
    /// first path whose last part is `snap.NAME.APP….SUFFIX`, the suffix dropped and a trailing `-UUID` too; a snap
    /// named without an app is its own app.
    static func snap(fromControlGroups text: String) -> (name: String, app: String)? {
        var name: String?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let last = fields[2].split(separator: "/").last else { continue }
            let parts = last.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, parts[0] == "snap" else { continue }
            if name == nil { name = parts[1] }
            guard parts.count >= 3, parts[1] == name else { continue }
            var app = parts[2..<(parts.count - 1)].joined(separator: ".")
            if app.isEmpty { app = parts[2] }
            if app.contains("-"), app.count > 37 {
                let uuid = app.suffix(36)
                if isUUID(uuid), app.dropLast(36).hasSuffix("-") { app = String(app.dropLast(37)) }
            }
            return (parts[1], app)
        }
        return name.map { ($0, $0) }
    }

    private static func isUUID(_ text: Substring) -> Bool {
        let hex = "0123456789abcdefABCDEF"
        return text.count == 36
            && text.enumerated().allSatisfy { index, character in
                [8, 13, 18, 23].contains(index) ? character == "-" : hex.contains(character)
            }
    }

    /// The text of a small file, or `nil` when it cannot be read.
    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " || $0 == "\t" }) }
}
