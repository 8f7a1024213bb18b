import DBusCore
import Foundation

/// A private `dbus-daemon` for one test: its own socket in a temporary folder, nothing shared with the desktop.
///
/// Start one with ``start(serviceDirectories:)`` or, better, ``withPrivateBus(serviceDirectories:_:)``, which stops
/// it however the body ends. Service directories make D-Bus activation testable.
public final class PrivateBus: Sendable {
    /// The address to connect to, as `DBUS_SESSION_BUS_ADDRESS` holds it.
    public let address: String
    /// The temporary folder that holds the socket and the configuration.
    public let directory: URL
    private let process: ChildProcess

    private init(address: String, directory: URL, process: ChildProcess) {
        self.address = address
        self.directory = directory
        self.process = process
    }

    /// Starts a bus and waits until it accepts connections.
    ///
    /// - Throws: ``TestSupportError`` when `dbus-daemon` is missing or does not come up within 10 seconds.
    public static func start(serviceDirectories: [URL] = []) throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nb-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let services = serviceDirectories.map { "  <servicedir>\(xmlEscaped($0.path))</servicedir>\n" }.joined()
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <keep_umask/>
              <listen>unix:dir=\(xmlEscaped(directory.path))</listen>
              <auth>EXTERNAL</auth>
            \(services)  <policy context="default">
                <allow user="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configURL = directory.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)

        guard let daemon = ExecutableLookup.find("dbus-daemon") else {
            throw TestSupportError(
                "dbus-daemon is not installed: run 'make test' (it installs it) or "
                    + "'apt-get install dbus-daemon'")
        }
        let (reader, writeEnd) = try LineReader.pipe()
        let process: ChildProcess
        do {
            defer { close(writeEnd) }
            process = try ChildProcess.spawn(
                [daemon.path, "--config-file=\(configURL.path)", "--nofork", "--nopidfile", "--print-address=1"],
                standardOutput: writeEnd)
        }
        let address: String
        do {
            address = try reader.nextLine(within: .seconds(10), waitingFor: "dbus-daemon to print its address")
        } catch {
            process.stop()
            throw error
        }
        guard !address.isEmpty else {
            process.stop()
            throw TestSupportError("dbus-daemon started but printed no address")
        }
        return PrivateBus(address: address, directory: directory, process: process)
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// The environment for a child process that should use this bus as its session bus. Its configuration folder
    /// (`XDG_CONFIG_HOME`) is one of the bus's own, and no desktop is named (`XDG_CURRENT_DESKTOP`), so that the user's
    /// settings, GNOME's among them, are never read or written.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_CURRENT_DESKTOP"] = nil
        return environment
    }

    /// Opens a new connection to this bus.
    public func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(to: .address(address))
    }

    /// Whether the daemon is still running.
    public var isRunning: Bool { process.poll() == nil }

    /// Stops the daemon and removes its folder.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh private bus and stops the bus afterwards, whether `body` returns or throws.
public func withPrivateBus<T>(
    serviceDirectories: [URL] = [], _ body: (PrivateBus) async throws -> T
) async throws -> T {
    let bus = try PrivateBus.start(serviceDirectories: serviceDirectories)
    defer { bus.stop() }
    return try await body(bus)
}

/// A failure of the test harness itself, with what to do about it.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What failed and what to do about it.
    public let description: String
    /// Makes the failure with its message.
    public init(_ description: String) { self.description = description }
}
