import NotificationModel

/// The desktop's own do-not-disturb switch, as the notification server or the desktop's settings report it: GNOME's
/// `show-banners` key, Plasma's inhibition, dunst's pause, a mako mode, SwayNotificationCenter's do-not-disturb.
///
/// It is the user's, not the bridge's: the bridge reads it and lets each notification's interruption level decide
/// what happens while it is on, but never turns it on or off.
package struct DesktopDoNotDisturb: Sendable, Hashable {
    /// The desktops whose switch the bridge can read.
    package enum Source: String, Sendable, Hashable, CaseIterable {
        /// GNOME: `org.gnome.desktop.notifications show-banners` off.
        case gnome
        /// Plasma: the notification server's `Inhibited` property.
        case plasma
        /// dunst: paused (`dunstctl set-paused true`).
        case dunst
        /// mako: a mode that hides notifications (`makoctl mode`).
        case mako
        /// SwayNotificationCenter: its do-not-disturb.
        case swaync
    }

    /// Whose switch was read; `nil` when the running desktop has none the bridge can read.
    package var source: Source?
    /// Whether the switch is on.
    package var isOn: Bool

    /// Makes a state.
    package init(source: Source?, isOn: Bool) {
        self.source = source
        self.isOn = isOn
    }

    /// No switch known: off.
    package static let unknown = DesktopDoNotDisturb(source: nil, isOn: false)
}

/// Follows the desktop's do-not-disturb.
package protocol DesktopDoNotDisturbWatching: Sendable {
    /// The state now, then each change, until the consuming task is cancelled or ``run()`` returns.
    func states() -> AsyncStream<DesktopDoNotDisturb>

    /// Follows the desktop's switch into the streams of ``states()`` until the task is cancelled (or the desktop can
    /// no longer be followed). Whoever owns the watcher runs it, in a task of its own group.
    func run() async

    /// Reads the switch again, for a desktop that announces no change of it (mako's modes): the state read, which
    /// ``states()`` reports too when it changed; `nil` when the desktop announces its changes, so that there is no
    /// need to ask. Whoever holds notifications back asks before it shows one and, while some wait, now and then.
    /// It runs on the caller's actor, so that asking a desktop that announces its changes costs no hop off it.
    nonisolated(nonsending) func refresh() async -> DesktopDoNotDisturb?

    /// The session reports another server (`owner`, with what it answered as `info` once it has), or none: the
    /// switch followed from now is that server's. Whoever reads the session's events passes them on, in their order.
    func serverChanged(owner: String?, info: NotificationServerInfo?)
}

extension DesktopDoNotDisturbWatching {
    /// A desktop that announces its changes: nothing to read again.
    package nonisolated(nonsending) func refresh() async -> DesktopDoNotDisturb? { nil }

    /// A switch fed from elsewhere: nothing to follow.
    package func run() async {}

    /// A switch fed from elsewhere: whose server it is does not matter.
    package func serverChanged(owner: String?, info: NotificationServerInfo?) {}
}

extension DesktopDoNotDisturb {
    /// Whether `content` goes through the desktop's do-not-disturb: the level's rule
    /// (``NotificationContent/passes(_:timeSensitiveAllowed:)`` for ``DoNotDisturbSwitch/desktop``), under which
    /// critical notifications pass, time-sensitive ones where the user allows them for the app
    /// (`timeSensitiveAllowed`), and passive and active ones wait.
    package static func passes(_ content: NotificationContent, timeSensitiveAllowed: Bool) -> Bool {
        content.passes(.desktop, timeSensitiveAllowed: timeSensitiveAllowed)
    }

    /// Whether `content` waits while the switch is in this state.
    package func holdsBack(_ content: NotificationContent, timeSensitiveAllowed: Bool) -> Bool {
        isOn && !Self.passes(content, timeSensitiveAllowed: timeSensitiveAllowed)
    }
}
