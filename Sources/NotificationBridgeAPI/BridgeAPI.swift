import DBusCore
import NotificationBridgeVersion

/// The names under which the daemon serves on the session bus.
public enum BridgeAPI {
    /// The well-known bus name the daemon owns.
    public static let busName = "io.github.NotificationBridge"
    /// The object that exports ``interfaceName``.
    public static let objectPath: DBusObjectPath = "/io/github/NotificationBridge"
    /// The interface: its methods, signals and properties are those of ``BridgeMethod``, ``BridgeSignal`` and
    /// ``BridgeProperty``.
    public static let interfaceName = "io.github.NotificationBridge1"
    /// The prefix of every error name the interface answers with.
    public static let errorPrefix = interfaceName + ".Error."
    /// The daemon's version, reported by `GetServerInformation`, the `Version` property and `--version`: the
    /// package's one version, ``ProgramVersion/number``.
    public static let version = ProgramVersion.number
}
