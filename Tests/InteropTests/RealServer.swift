import DBusTestSupport
import Foundation
import Testing

/// A notification server Debian ships, and how a test starts it and acts on it as its user would.
struct RealServer: Sendable, CustomTestStringConvertible {
    /// How the user reaches the actions of a notification.
    enum Pointer: Sendable {
        /// Buttons on the bubble, found in the accessibility tree and clicked.
        case buttons
        /// dunst: its context menu, through the program its `dmenu` setting names.
        case dunstMenu
        /// GNOME Shell: the buttons of its banner, pressed through `org.gnome.Shell.Eval` (``GnomeShellSession``).
        case gnomeShell
        /// mako: `makoctl menu` and `makoctl dismiss`, under sway.
        case makoctl
        /// SwayNotificationCenter: its buttons pressed through the accessibility tree, under sway.
        case swayncButtons
        /// SwayNotificationCenter 0.11, whose GTK 4 windows are not in the accessibility tree under headless sway: its
        /// own control (`LatestInvokeAction`, `HideLatestNotifications` of `org.erikreider.swaync.cc`, what
        /// `swaync-client --action` and `--close-latest` call) on the newest notification, the action found by its
        /// position in the `Notify` call (``NotifyWatch``).
        case swayncControl
    }

    var name: String
    /// The Debian package, for its version.
    var package: String
    /// The command that starts it; empty for dunst, which ``Dunst`` starts.
    var command: [String]
    var pointer: Pointer
    /// Why it is not driven, for a server that is listed but skipped.
    var notDriven: String?

    var testDescription: String { name }

    /// The servers Debian ships, in the order `make interop` reports them; commands as ``DebianRelease/current`` has
    /// them.
    static let all: [RealServer] = [
        RealServer(
            name: "xfce4-notifyd", package: "xfce4-notifyd",
            command: ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"], pointer: .buttons),
        RealServer(
            name: "notification-daemon", package: "notification-daemon",
            command: ["/usr/lib/notification-daemon/notification-daemon"], pointer: .buttons),
        RealServer(
            name: "mate-notification-daemon", package: "mate-notification-daemon",
            command: DebianRelease.current.command(
                of: "mate-notification-daemon", bookworm: ["/usr/lib/mate-notification-daemon/mate-notification-daemon"]
            ),
            pointer: .buttons),
        RealServer(
            name: "lxqt-notificationd", package: "lxqt-notificationd", command: ["lxqt-notificationd"],
            pointer: .buttons),
        RealServer(name: "dunst", package: "dunst", command: [], pointer: .dunstMenu),
        RealServer(name: "mako", package: "mako-notifier", command: ["mako"], pointer: .makoctl),
        RealServer(
            name: "SwayNotificationCenter", package: "sway-notification-center", command: ["swaync"],
            pointer: DebianRelease.current.swayncPointer),
        RealServer(name: "GNOME Shell", package: "gnome-shell", command: [], pointer: .gnomeShell),
        RealServer(name: "Plasma", package: "plasma-workspace", command: ["plasmashell"], pointer: .buttons),
    ]

    /// Why this server cannot run here, or `nil` when it can.
    var missing: String? {
        if let notDriven = notDriven ?? DebianRelease.current.notDriven[name] { return notDriven }
        if pointer == .gnomeShell { return GnomeShellSession.missing }
        if PlasmaSession.isPlasma(self), let missing = PlasmaSession.missing { return missing }
        let program = command.first ?? "dunst"
        let found =
            program.contains("/")
            ? FileManager.default.isExecutableFile(atPath: program) : ExecutableLookup.find(program) != nil
        guard found else { return "\(program) is not installed ('make interop' installs \(package))" }
        return runsUnderSway ? SwaySession.missing : nil
    }

    /// The installed version of its package, as `dpkg -s` says.
    func version() async -> String {
        let result = try? await ProcessRunner.run(["dpkg-query", "-W", "-f=${Version}", package])
        return result?.output ?? "?"
    }
}
