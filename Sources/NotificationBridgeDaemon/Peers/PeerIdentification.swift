/// Reads what a sandbox leaves about a process, as xdg-desktop-portal reads it: pure functions over file contents, so
/// that each rule is tested without a sandbox.
enum PeerIdentification {
    /// The peer a process is, from what was read of it.
    ///
    /// - Parameters:
    ///   - flatpakInfo: the contents of `/.flatpak-info` in the process's root (`/proc/PID/root/.flatpak-info`), or
    ///     `nil` when it has none.
    ///   - securityLabel: its AppArmor label (`snap.NAME.APP (enforce)` for a confined Snap), if any.
    ///   - cgroup: the contents of `/proc/PID/cgroup`, if read.
    static func peer(flatpakInfo: String?, securityLabel: String?, cgroup: String?) -> Peer {
        if let flatpakInfo {
            guard let id = flatpakAppID(flatpakInfo) else {
                return .unidentified(kind: .flatpak, why: "its /.flatpak-info names no app")
            }
            return .sandboxed(SandboxedApp(kind: .flatpak, id: id))
        }
        if let name = securityLabel.flatMap(snapName(fromLabel:)) ?? cgroup.flatMap(snapName(fromCgroup:)) {
            return .sandboxed(SandboxedApp(kind: .snap, id: "snap." + name, snapName: name))
        }
        return .host
    }

    /// The app id of a `/.flatpak-info` (a GKeyFile): `name` of the `[Application]` group, or of `[Runtime]` for a
    /// runtime run on its own; `nil` when there is none, or it is not a valid app id.
    static func flatpakAppID(_ text: String) -> String? {
        var group = ""
        var names: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = trimmed(line[..<equals])
            if key == "name", names[group] == nil {
                names[group] = trimmed(line[line.index(after: equals)...])
            }
        }
        guard let id = names["Application"] ?? names["Runtime"], isValidAppID(id) else { return nil }
        return id
    }

    /// `text` without the spaces and tabs around it, as GKeyFile reads a line.
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = text.firstIndex(where: { !isBlank($0) }), let end = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[start...end])
    }

    private static func trimmed(_ text: String) -> String { trimmed(text[...]) }

    /// Whether `id` is a valid app id: as a D-Bus well-known name, at least two elements of letters, digits, `_` and
    /// `-`, none starting with a digit, at most 255 bytes.
    static func isValidAppID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 255 else { return false }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                return false
            }
            return element.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
        }
    }

    /// The Snap name in an AppArmor label `snap.NAME.APP` or `snap.NAME.hook.HOOK` (a mode such as ` (enforce)` may
    /// follow); `nil` for any other label (`unconfined`, a classic Snap).
    static func snapName(fromLabel label: String) -> String? {
        let profile = label.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let parts = profile.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", isValidSnapName(parts[1]) else { return nil }
        return String(parts[1])
    }

    /// The Snap name in a process's cgroup, whose systemd unit snapd names `snap.NAME.APP-UUID.scope` (or
    /// `snap.NAME.APP.service`); `nil` when no line names one.
    static func snapName(fromCgroup text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            // "0::/user.slice/…/app.slice/snap.NAME.APP-UUID.scope"
            guard let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last else {
                continue
            }
            for component in path.split(separator: "/").reversed() where component.hasPrefix("snap.") {
                let parts = component.split(separator: ".")
                guard parts.count >= 3, component.hasSuffix(".scope") || component.hasSuffix(".service"),
                    isValidSnapName(parts[1])
                else { continue }
                return String(parts[1])
            }
        }
        return nil
    }

    /// Whether `name` is a Snap (instance) name: lowercase letters, digits and `-`, with an optional `_KEY`.
    private static func isValidSnapName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                    UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
