import DBusCore
import FoundationEssentials
import Logging
import NotificationBridge
import NotificationScheduling

/// How a ``NotificationDaemon`` runs: which buses, how it presents notifications, where it logs.
public struct DaemonConfiguration: Sendable {
    /// The bus to serve on; the notification server is reached on the same one.
    public var bus: DBusConnection.Bus
    /// The system bus, where logind says whether the session is locked; `nil` to rely on the session's screen saver.
    public var systemBus: DBusConnection.Bus?
    /// Whether to take the bus name from a running daemon (which then stops) instead of refusing to start.
    public var replacesRunningDaemon: Bool
    /// The app name of a notification posted without `app-name`.
    public var defaultAppName: String
    /// Where destructive actions go and how they are marked.
    public var rendering: NotificationRendering
    /// A program that asks for typed text where the server has no inline reply; `nil` uses zenity, kdialog or yad.
    public var promptCommand: [String]?
    /// Where zenity, kdialog and yad are looked for without a ``promptCommand``, in `PATH` syntax; `nil` uses `PATH`,
    /// and an empty string finds none.
    public var promptSearchPath: String?
    /// Where desktop files of apps receiving `app-action` responses are looked up; `nil` for the XDG data folders.
    public var applicationDirectories: [String]?
    /// Where scheduled notifications and categories are kept across restarts; `nil` for
    /// `$XDG_STATE_HOME/notification-bridge` (`~/.local/state/notification-bridge`).
    public var stateDirectory: String?
    /// How long to wait for the lock of ``stateDirectory`` held by another process: a daemon handing over with
    /// `--replace` lets it go once its last change is on disk; one serving another bus with the same folder does not,
    /// and this daemon then stops with ``DaemonError/cannotOpenState(_:)``, naming it.
    public var stateLockTimeout: Duration = .seconds(15)
    /// Where the daemon logs. Typed text and user info are never logged.
    public var logger: Logger
    /// How long the notification server may take to answer before a call to it fails: `Post` then fails with
    /// `Error.ServerTimeout`. Other methods never wait on the server.
    public var serverTimeout: Duration = .seconds(10)
    /// Where the user's notification settings are kept: GNOME's keys on GNOME, else the bridge's own file.
    public var settingsLocation: NotificationSettingsLocation = .automatic
    /// The folder of the bridge's own settings file; `nil` for `$XDG_CONFIG_HOME/notification-bridge`
    /// (`~/.config/notification-bridge`).
    public var settingsDirectory: String?
    /// How long and how many notifications that ended the history keeps (`ListHistory`, `Act`).
    public var historyBounds = HistoryBounds()
    /// The time notifications end at, for the history and its bound by age; `nil` for the system's clock. For tests,
    /// which move it days ahead.
    package var historyClock: (@Sendable () -> Date)?
    /// The wall clock scheduled notifications come due by; `nil` for the system's. For tests, which move it by hand.
    package var schedulerClock: (any SchedulerClock)?
    /// Reads the user's time zone, at start and at each change the system reports; `nil` for the system's (`TZ`,
    /// `/etc/localtime`). Scheduled notifications and focus modes' schedules are read in it. For tests, which choose a
    /// zone with daylight saving time.
    package var schedulerTimeZone: (@Sendable () -> TimeZoneRules)?
    /// Reports each step of the wall clock; `nil` for the kernel's reports (``WallClockSteps``). For tests, which step
    /// ``schedulerClock`` by hand and report it as the kernel would.
    package var wallClockSteps: AsyncStream<Void>?
    /// Follows the desktop's do-not-disturb; `nil` for a ``DesktopDoNotDisturbWatcher`` on ``bus``, which reads the
    /// switch of the server that owns `org.freedesktop.Notifications`. Tests give one that feeds states.
    package var desktopDoNotDisturb: (any DesktopDoNotDisturbWatching)?
    /// How often the switch is read again while notifications are held, where the desktop announces no change of it
    /// (mako); never while none is held.
    package var doNotDisturbPollInterval: Duration = .seconds(2)
    /// Called once the daemon serves: its name owned, its state restored, its services about to start.
    /// `notification-bridged` arranges there to let go of its code pages after each quiet second.
    public var whenServing: (@Sendable () -> Void)?

    /// Makes a configuration; the defaults are those of the installed daemon.
    public init(
        bus: DBusConnection.Bus = .session, systemBus: DBusConnection.Bus? = .system,
        replacesRunningDaemon: Bool = false, defaultAppName: String = "NotificationBridge",
        rendering: NotificationRendering = .init(), promptCommand: [String]? = nil,
        applicationDirectories: [String]? = nil, logger: Logger = Logger(label: "io.github.NotificationBridge"),
        stateDirectory: String? = nil
    ) {
        self.stateDirectory = stateDirectory
        self.bus = bus
        self.systemBus = systemBus
        self.replacesRunningDaemon = replacesRunningDaemon
        self.defaultAppName = defaultAppName
        self.rendering = rendering
        self.promptCommand = promptCommand
        self.applicationDirectories = applicationDirectories
        self.logger = logger
    }
}
