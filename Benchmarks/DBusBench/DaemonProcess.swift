import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI

/// A `notification-bridged` started by the benchmark on its private bus, with its state in a folder of its own, and
/// what `/proc` says about it.
final class DaemonProcess: Sendable {
    let child: ChildProcess
    /// From just before the spawn to when this process saw the daemon take its name.
    let startNanoseconds: Double
    let log: String

    private init(child: ChildProcess, startNanoseconds: Double, log: String) {
        self.child = child
        self.startNanoseconds = startNanoseconds
        self.log = log
    }

    var pid: pid_t { child.pid }

    /// Starts the daemon at `executable` with its state under `stateHome` (as `XDG_STATE_HOME`) and returns once it
    /// owns its name; `client` watches for that.
    static func start(
        executable: String, bus: PrivateBus, client: DBusConnection, stateHome: String
    ) async throws -> DaemonProcess {
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        let log = stateHome + "/daemon.log"
        let output = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(output) }
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = stateHome
        // No system bus here: the daemon follows the session's screen lock alone, as it would without logind.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
        let started = monotonicNanoseconds()
        let child = try ChildProcess.spawn(
            [executable], environment: environment, standardOutput: output, standardError: output)
        do {
            try await withTimeout(.seconds(30), waitingFor: "notification-bridged to own its name") {
                for await owner in owners where owner != nil { return }
            }
        } catch {
            child.stop()
            throw BenchError("\(error); its log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        return DaemonProcess(
            child: child, startNanoseconds: Double(monotonicNanoseconds() - started), log: log)
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 30 s) and returns its exit status (137: it had to be killed).
    @discardableResult
    func stop() -> Int32? {
        child.stop(grace: .seconds(30))
    }

    /// What `/proc` says of its resident memory.
    var memory: ProcessMemory { ProcessMemory(pid: pid) }

    /// CPU time so far, user + system, in clock ticks (`/proc/<pid>/stat` fields 14 and 15).
    func cpuTicks() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name may hold spaces; the fields after it are plain.
        guard let close = stat.lastIndex(of: ")") else { throw BenchError("unexpected /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("unexpected /proc/\(pid)/stat")
        }
        return user + system
    }

    /// For each live thread (`name tid`): context switches so far (each time it went to sleep or was put off the CPU;
    /// a thread that never wakes adds none) and CPU time from its `schedstat`, finer than clock ticks.
    func threadActivity() -> [String: (switches: Double, cpuNanoseconds: Double)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var activity: [String: (switches: Double, cpuNanoseconds: Double)] = [:]
        for task in tasks {
            let folder = "/proc/\(pid)/task/\(task)/"
            guard let status = try? String(contentsOfFile: folder + "status", encoding: .utf8),
                let schedstat = try? String(contentsOfFile: folder + "schedstat", encoding: .utf8)
            else { continue }
            var name = task
            var switches = 0.0
            for line in status.split(separator: "\n") {
                let value = line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? ""
                if line.hasPrefix("Name:") { name = value + " " + task }
                if line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    switches += Double(value) ?? 0
                }
            }
            activity[name] = (switches, Double(schedstat.split(separator: " ").first ?? "") ?? 0)
        }
        return activity
    }
}

/// Withdraws what the benchmark's libdbus clients posted, between rounds and outside any measure. They post under the
/// daemon's default app name, and the daemon lets one app have at most 10,000 notifications showing: rounds of
/// thousands of posts would reach that bound.
func withdrawBaselinePosts(from client: DBusConnection) async throws {
    var filter = WireEntries()
    filter[FilterKeys.appName] = "NotificationBridge"
    _ = try await client.call(
        destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
        method: BridgeMethod.withdrawAll.name, arguments: [filter.value], timeout: .seconds(300))
}
