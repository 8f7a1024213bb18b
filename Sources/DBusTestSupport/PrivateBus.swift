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
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configURL = directory.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)

        guard let daemon = ExecutableLookup.find("dbus-daemon") else {
            throw TestSupportError("dbus-daemon is not installed: run 'make test' (it installs it) or "
                + "'apt-get install dbus-daemon'")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestSupportError("pipe failed: errno \(errno)") }
        defer { close(ends[0]) }
        let process: ChildProcess
        do {
            defer { close(ends[1]) }
            process = try ChildProcess.spawn(
                [daemon.path, "--config-file=\(configURL.path)", "--nofork", "--nopidfile", "--print-address=1"],
                standardOutput: ends[1])
        }
        let output = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        let address: String
        do {
            address = try readLine(from: output, within: .seconds(10))
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

    private static func readLine(from handle: FileHandle, within limit: Duration) throws -> String {
        let deadline = ContinuousClock.now + limit
        var buffer = Data()
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
        }
        throw TestSupportError("dbus-daemon did not print its address within \(limit)")
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// The environment for a child process that should use this bus as its session bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
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
    public let description: String
    public init(_ description: String) { self.description = description }
}
