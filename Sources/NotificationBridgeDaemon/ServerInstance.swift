import DBusCore
import FoundationEssentials

/// One running instance of the notification server: the ids it gives mean something to it alone.
///
/// A server that restarts, or the server of another session, gets a new unique bus name (and a new process), and
/// numbers its notifications anew: a route kept for an id of another instance would act on a stranger's
/// notification. The unique name tells instances of one bus apart; the process id and its start time tell apart
/// two buses that happen to hand out the same unique name.
struct ServerInstance: Codable, Sendable, Hashable {
    /// The unique name of the server's connection (`:1.42`).
    var uniqueName: String
    /// The server's process id, when the bus tells it.
    var processID: UInt32?
    /// When that process started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`), when readable.
    var processStart: UInt64?

    /// The instance behind `uniqueName` on `connection`.
    static func identify(_ uniqueName: String, on connection: DBusConnection) async -> ServerInstance {
        let processID = try? await connection.processID(of: uniqueName)
        return ServerInstance(
            uniqueName: uniqueName, processID: processID, processStart: processID.flatMap(Self.startTime(of:)))
    }

    /// The start time of process `pid`, from `/proc`.
    private static func startTime(of pid: UInt32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        // After the command name (which may hold spaces), the fields from the third on.
        let fields = text[text.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
