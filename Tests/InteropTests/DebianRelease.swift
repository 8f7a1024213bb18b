import Foundation

/// The Debian release whose programs the interop tests drive: the one they run in, as its `/etc/os-release` says
/// (`make interop` runs them on the host, `make interop SUITE=trixie` inside a trixie root). What differs from one
/// release to the next for the harness is in this one table; the cases and the sessions are the same on each.
struct DebianRelease: Sendable {
    /// A program the harness starts, and the package that brings it.
    struct Program: Sendable {
        /// A name looked up on `PATH`, or an absolute path.
        var command: String
        var package: String
    }

    /// The codename (`VERSION_CODENAME`): bookworm, trixie.
    var codename: String
    /// The commands of the servers whose program is not where bookworm has it, by server name.
    var serverCommands: [String: [String]] = [:]
    /// Plasma's global-shortcuts daemon, which plasmashell needs on the bus (KDE Frameworks 5's, then Plasma 6's own).
    var globalShortcuts = Program(command: "kglobalaccel5", package: "libkf5globalaccel-bin")
    /// Cases a server of this release does not run, and the reason the server gives: by server name, then case name.
    var notRun: [String: [String: String]] = [:]
    /// Servers of this release the harness cannot drive at all, and why: by server name.
    var notDriven: [String: String] = [:]
    /// Whether GNOME Shell sends `ActivationToken` for a notification whose desktop entry names an installed app:
    /// 48 does, 43 sends none at all.
    var gnomeShellSendsActivationTokens = false
    /// How the harness presses SwayNotificationCenter's actions.
    var swayncPointer = RealServer.Pointer.swayncButtons

    /// Debian 12.
    static let bookworm = DebianRelease(codename: "bookworm")

    /// Debian 13: Plasma 6.3 with KDE Frameworks 6, GNOME Shell 48.
    static let trixie = DebianRelease(
        codename: "trixie",
        serverCommands: [
            "mate-notification-daemon": ["/usr/libexec/mate-notification-daemon/mate-notification-daemon"]
        ],
        globalShortcuts: Program(command: "/usr/lib/x86_64-linux-gnu/libexec/kglobalacceld", package: "kglobalacceld"),
        notRun: [
            "SwayNotificationCenter": [
                "cancelled prompt": SwayncTyping.reason, "typed text": SwayncTyping.reason,
            ]
        ],
        gnomeShellSendsActivationTokens: true, swayncPointer: .swayncControl)

    /// Why SwayNotificationCenter 0.11's typed text is not tested: it has `inline-reply`, so the bridge lets it take
    /// the text in its own field, and its control interface cannot type there (nor can the harness reach the field
    /// in the accessibility tree).
    enum SwayncTyping {
        static let reason =
            "SwayNotificationCenter 0.11 takes typed text in its own reply field (inline-reply), which neither its "
            + "control interface nor the accessibility tree under headless sway lets the harness type into"
    }

    /// The release the tests run in; bookworm's table where `/etc/os-release` names a release the table lacks.
    static let current: DebianRelease = {
        let codename = osRelease()["VERSION_CODENAME"] ?? ""
        return [bookworm, trixie].first { $0.codename == codename } ?? bookworm
    }()

    /// The command of the server named `server`: this release's where it differs, else `bookworm`'s.
    func command(of server: String, bookworm: [String]) -> [String] {
        serverCommands[server] ?? bookworm
    }

    /// The fields of `/etc/os-release` (`NAME=value`, the value maybe quoted).
    private static func osRelease() -> [String: String] {
        let text = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            fields[String(line[..<equals])] = value
        }
        return fields
    }
}
