import NotificationModel

/// What known servers do that their capabilities do not say, seen on the servers themselves (`PROTOCOLS.md`).
///
/// Each quirk is read from the server's name and vendor, so that a server that is not listed gets the behaviour the
/// specification describes.
extension NotificationServerInfo {
    /// Whether the server's name is `lowercased`, in any case: compared byte by byte, with no lowercased copy made
    /// (the encoder asks several of these for every notification).
    private func nameIs(_ lowercased: String) -> Bool { Self.equalIgnoringASCIICase(name, lowercased) }

    /// Whether the server's vendor is `lowercased`, in any case.
    private func vendorIs(_ lowercased: String) -> Bool { Self.equalIgnoringASCIICase(vendor, lowercased) }

    static func equalIgnoringASCIICase(_ text: String, _ lowercased: String) -> Bool {
        text.utf8.elementsEqual(lowercased.utf8) { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z") ~= byte ? byte + 32 : byte) == expected
        }
    }

    /// The most buttons the server shows, where it is known to show few (GNOME Shell shows three); `nil` when the
    /// server shows every action.
    public var maximumButtons: Int? {
        nameIs("gnome-shell") ? 3 : nil
    }

    /// Whether the server shows the actions as a list with the first one already chosen, so that one confirming
    /// click picks it: lxqt-notificationd 1.2 turns more than three actions into a combo box with an OK button.
    /// (dunst's menu also opens on its first line, but dunst orders the lines itself: the bridge cannot choose it.)
    public var preselectsFirstAction: Bool { nameIs("lxqt-notificationd") }

    /// The text the server reads before an action's label as marking it destructive, where it reads one:
    /// notification-terminal-server shows a label that starts with `⚠` as a destructive button. `nil` for every other
    /// server, which shows a marker as part of the label.
    public var destructiveMarker: String? {
        nameIs("notification-terminal-server") ? "⚠ " : nil
    }

    /// The bus name of the process that shows the notifications, where that is not the process that owns
    /// `org.freedesktop.Notifications`: GNOME Shell's gjs service `org.gnome.Shell.Notifications` owns the name and
    /// forwards to the shell, `org.gnome.Shell`. When the service restarts alone, the shell keeps showing what was
    /// posted through it; `nil` for every other server.
    public var displayBusName: String? {
        nameIs("gnome-shell") ? "org.gnome.Shell" : nil
    }

    /// Whether the server groups notifications by app itself, as GNOME Shell (its message list) and Plasma (its history
    /// and popups) do: there every notification of a thread is shown on its own and the server groups them, so the
    /// bridge adds a thread's summary only when the notification asks for it. Every other server shows each
    /// notification on its own, and the daemon keeps one notification of a thread on the screen.
    public var groupsByApp: Bool {
        nameIs("gnome-shell") || nameIs("plasma")
    }

    /// Whether the server sends `NotificationClosed` when a notification expires. notification-daemon lets an
    /// expired bubble vanish without a word, and SwayNotificationCenter moves it to its control centre without one,
    /// so the bridge ends such notifications itself, once their ``lifetime(of:)`` has passed (and closes them there).
    public var reportsExpiry: Bool {
        !(nameIs("notification daemon") && vendorIs("gnome"))
            && !nameIs("swaynotificationcenter")
    }

    /// Whether the server reports its close button (X) as an expiry (reason 1) instead of a dismissal (reason 2), as
    /// mate-notification-daemon does: there a close with reason 1 before the notification's ``lifetime(of:)`` has
    /// passed is the user's.
    public var reportsCloseButtonAsExpiry: Bool {
        nameIs("notification daemon") && vendorIs("mate")
    }

    /// The timeout the server applies to a notification that asks for the server's default, where the bridge needs
    /// it (notification-daemon and mate-notification-daemon: 7 seconds); `nil` elsewhere.
    public var defaultTimeout: Duration? {
        nameIs("notification daemon") ? .seconds(7) : nil
    }

    /// How long the server refuses a `Notify` identical to one it took (the same app name, summary and body) with
    /// `org.freedesktop.Notifications.Error.ExcessNotificationGeneration`, where it does: Plasma refuses for a second
    /// (6.3.6 on Debian 13 was seen doing so, and the refused call used up an id). The session sends such a
    /// notification again, unchanged, once that time has passed: the user still gets what the app posted, a second
    /// late at most, with the text the app wrote, rather than an error or a text changed to slip past the server's
    /// guard against floods. `nil` for every other server.
    public var refusesRepeatsWithin: Duration? {
        nameIs("plasma") ? .seconds(1) : nil
    }

    /// Whether the server sends `ActivationToken` only for a notification whose `desktop-entry` hint names an
    /// installed application: GNOME Shell from 44 makes the token through the app's launch context (48.7 on Debian 13
    /// sent one for `org.gnome.Settings` and none for an entry it could not find). There a foreground action of a
    /// notification without such an entry reaches the app with no token, and a Wayland compositor may then refuse it
    /// the focus.
    public var sendsActivationTokenOnlyForInstalledApps: Bool {
        nameIs("gnome-shell") && (majorVersion ?? 0) >= 44
    }

    /// Whether the server sends no `ActivationToken` at all: GNOME Shell 43 (Debian 12) sent none, also for the
    /// desktop entry of an installed app.
    public var sendsNoActivationToken: Bool {
        nameIs("gnome-shell") && (majorVersion ?? 0) < 44
    }

    /// The first number of the server's version (`43` of `43.9`), or `nil` when it does not start with one.
    private var majorVersion: Int? {
        Int(version.prefix { $0.isNumber })
    }

    /// How long a notification posted with `timeout` stays before the server expires it, or `nil` when it never
    /// expires or the bridge cannot know.
    public func lifetime(of timeout: NotificationTimeout) -> Duration? {
        switch timeout {
        case .never: nil
        case .serverDefault: defaultTimeout
        case .milliseconds(let milliseconds): .milliseconds(milliseconds)
        }
    }
}
