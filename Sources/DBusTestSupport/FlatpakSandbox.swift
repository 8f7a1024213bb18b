import DBusCore
import Foundation

/// A Flatpak app's sandbox, built as Flatpak builds it, around a ``PrivateBus``: a root of its own made by `bwrap`
/// (Debian's bubblewrap) with a `/.flatpak-info` naming the app, and the app's view of the session bus through
/// `xdg-dbus-proxy --filter`, itself run in a `bwrap` with the same `/.flatpak-info`, so that what the bus says of the
/// app's connection (its process is the proxy) leads to the app's id, as it does under Flatpak.
///
/// Programs run inside with ``run(_:timeout:)``; ``connect()`` gives the test process a connection through the same
/// proxy, which the bus and its peers cannot tell from the app's own.
public final class FlatpakSandbox: Sendable {
    /// The app id the sandbox's `/.flatpak-info` names.
    public let appID: String
    /// The address of the proxied bus, as seen outside the sandbox.
    public let outsideAddress: String
    /// The folder of the sandbox's files (its `/.flatpak-info`, the proxy's socket).
    public let directory: URL
    private let proxy: ChildProcess
    /// The instance's folders that Flatpak keeps for the portal (``instanceFolders(instanceID:environment:)``).
    private let instanceFolders: [URL]

    /// Where the proxied bus's socket appears inside the sandbox.
    static let insideSocketFolder = "/run/flatpak/bus-proxy"

    private init(
        appID: String, outsideAddress: String, directory: URL, proxy: ChildProcess, instanceFolders: [URL] = []
    ) {
        self.instanceFolders = instanceFolders
        self.appID = appID
        self.outsideAddress = outsideAddress
        self.directory = directory
        self.proxy = proxy
    }

    /// Why sandboxes cannot be built here (`bwrap` or `xdg-dbus-proxy` missing, or user namespaces refused), or `nil`
    /// when they can. `make test` installs both programs.
    public static let unavailableReason: String? = {
        for program in ["bwrap", "xdg-dbus-proxy"] where ExecutableLookup.find(program) == nil {
            return "\(program) is not installed ('make test' installs bubblewrap and xdg-dbus-proxy)"
        }
        let probe = try? ChildProcess.spawn(
            ["bwrap"] + rootArguments + ["--", "/usr/bin/true"],
            standardOutput: open("/dev/null", O_WRONLY), standardError: open("/dev/null", O_WRONLY))
        guard let probe, probe.waitBlocking(within: .seconds(10)) == 0 else {
            return "bwrap cannot make a sandbox here (user namespaces are not available to this user)"
        }
        return nil
    }()

    /// The root every sandbox gets: the host's `/usr` and `/etc` read-only, as a Flatpak runtime's, a `/proc` and a
    /// `/dev` of its own, in a PID namespace of its own (everything in it ends with the `bwrap` that made it).
    private static let rootArguments = [
        "--unshare-pid", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
        "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    ]

    /// Builds the sandbox of `appID` on `bus` and starts its proxy, allowed to talk to the names in `talk` (and to own
    /// those in `own`), as `flatpak run` with `--talk-name` and `--own-name` would.
    ///
    /// - Parameter flatpakInfo: the whole `/.flatpak-info`, when a test wants another than the usual one.
    public static func start(
        appID: String, on bus: PrivateBus, talk: [String], own: [String] = [], flatpakInfo: String? = nil
    ) async throws -> FlatpakSandbox {
        if let unavailableReason { throw TestSupportError(unavailableReason) }
        let directory = bus.directory.appendingPathComponent("sandbox-\(appID)-\(UUID().uuidString.prefix(8))")
        let proxyFolder = directory.appendingPathComponent("proxy")
        try FileManager.default.createDirectory(at: proxyFolder, withIntermediateDirectories: true)
        let info = directory.appendingPathComponent("flatpak-info")
        let instanceID = UInt32.random(in: 1...UInt32.max)
        try
            (flatpakInfo ?? """
                [Application]
                name=\(appID)
                runtime=runtime/org.freedesktop.Platform/x86_64/23.08

                [Instance]
                instance-id=\(instanceID)

                """).write(to: info, atomically: true, encoding: .utf8)
        let socket = proxyFolder.appendingPathComponent("bus")
        let policy = ["--filter"] + talk.map { "--talk=\($0)" } + own.map { "--own=\($0)" }
        let proxy = try ChildProcess.spawn(
            ["bwrap", "--die-with-parent"] + rootArguments + [
                "--ro-bind", info.path, "/.flatpak-info",
                "--bind", bus.directory.path, bus.directory.path, "--bind", proxyFolder.path, proxyFolder.path,
                "--", "xdg-dbus-proxy", bus.address, socket.path,
            ] + policy,
            standardOutput: open("/dev/null", O_WRONLY))
        // What Flatpak keeps of a running instance for the portal: xdg-desktop-portal 1.20 (Debian 13) refuses an app
        // whose instance has no bwrapinfo.json, where 1.16 did not look.
        let folders =
            flatpakInfo == nil ? Self.instanceFolders(instanceID: instanceID, environment: bus.environment) : []
        for folder in folders {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{\"child-pid\": \(proxy.pid)}\n".utf8).write(to: folder.appendingPathComponent("bwrapinfo.json"))
        }
        let sandbox = FlatpakSandbox(
            appID: appID, outsideAddress: "unix:path=\(socket.path)", directory: directory, proxy: proxy,
            instanceFolders: folders)
        do {
            // The proxy says nothing when it is ready. Its socket file appears when it binds, a moment before it
            // listens: a connection in between is refused (NoServer). The kernel's table of sockets says when it listens.
            try await withTimeout(.seconds(20), waitingFor: "xdg-dbus-proxy to listen in the sandbox of \(appID)") {
                while !Self.isListening(socket.path) {
                    if let status = proxy.poll() {
                        throw TestSupportError("xdg-dbus-proxy in its sandbox ended with status \(status)")
                    }
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
        } catch {
            sandbox.stop()
            throw error
        }
        return sandbox
    }

    /// Whether a Unix socket bound at `path` listens: its line in `/proc/net/unix` has the accepting flag
    /// (`__SO_ACCEPTCON`, 0x10000), which `listen` sets.
    static func isListening(_ path: String) -> Bool {
        // Read to its end: a file of /proc says it is empty, so a read of its stated size gets nothing.
        guard let data = FileHandle(forReadingAtPath: "/proc/net/unix")?.readDataToEndOfFile() else { return false }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[7] == path && (UInt32(fields[3], radix: 16) ?? 0) & 0x10000 != 0
        }
    }

    /// Runs `arguments` inside the sandbox, with the proxied bus as its session bus.
    ///
    /// - Parameters:
    ///   - environment: variables set inside, beside `PATH`, `HOME`, `container` and `DBUS_SESSION_BUS_ADDRESS`.
    ///   - exposing: folders of the host the program needs (its own, its libraries'), bound read-only at their paths.
    public func run(
        _ arguments: [String], environment: [String: String] = [:], exposing: [String] = [],
        timeout: Duration = .seconds(20)
    ) async throws -> ProcessResult {
        try await ProcessRunner.run(
            commandLine(arguments, environment: environment, exposing: exposing, diesWithParent: true),
            timeout: timeout)
    }

    /// The command line that runs `arguments` inside the sandbox (see ``run(_:environment:exposing:timeout:)``), for
    /// a program started otherwise, such as by D-Bus activation.
    ///
    /// - Parameter diesWithParent: whether the sandbox ends with the process that starts it. Not for D-Bus
    ///   activation: the bus starts a service through a helper process that ends once the service has its name.
    public func commandLine(
        _ arguments: [String], environment: [String: String] = [:], exposing: [String] = [],
        diesWithParent: Bool = false
    ) -> [String] {
        let bind = directory.appendingPathComponent("proxy").path
        var inside = [
            "PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "container": "flatpak",
            "FLATPAK_ID": appID, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(Self.insideSocketFolder)/bus",
        ]
        inside.merge(environment) { $1 }
        return ["bwrap"] + (diesWithParent ? ["--die-with-parent"] : []) + Self.rootArguments + [
            "--ro-bind", directory.appendingPathComponent("flatpak-info").path, "/.flatpak-info",
            "--ro-bind", bind, Self.insideSocketFolder, "--clearenv",
        ] + exposing.flatMap { ["--ro-bind", $0, $0] }
            + inside.sorted { $0.key < $1.key }.flatMap { ["--setenv", $0.key, $0.value] } + ["--"] + arguments
    }

    /// The folders a program needs bound into a sandbox to start: its own and those of the libraries it loads from
    /// outside `/usr` (as `ldd` finds them), such as a toolchain's runtime.
    public static func foldersNeeded(by program: URL) async throws -> [String] {
        let listed = try await ProcessRunner.run(["ldd", program.path], timeout: .seconds(20))
        guard listed.status == 0 else { throw TestSupportError("ldd \(program.path) failed: \(listed.output)") }
        var folders = [program.deletingLastPathComponent().path]
        for line in listed.standardOutput.split(separator: "\n") {
            guard let arrow = line.range(of: "=> /") else { continue }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let inRoot = ["/usr/", "/lib/", "/lib64/"].contains { folder.hasPrefix($0) }
            if !inRoot, !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// A connection to the proxied bus, made from the test process: the bus and the daemon see the proxy, so it counts
    /// as the app's.
    public func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(to: .address(outsideAddress))
    }

    /// Stops the proxy and removes the sandbox's files.
    public func stop() {
        proxy.stop(grace: .milliseconds(200))
        try? FileManager.default.removeItem(at: directory)
        for folder in instanceFolders { try? FileManager.default.removeItem(at: folder) }
    }

    /// Where Flatpak keeps a running instance's files, `.flatpak/INSTANCE` in the user's runtime folder, as the portal
    /// run with `environment` looks for them: under `XDG_RUNTIME_DIR`, or `~/.cache` without one (GLib's fallback).
    private static func instanceFolders(instanceID: UInt32, environment: [String: String]) -> [URL] {
        let runtime =
            environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return [URL(fileURLWithPath: runtime).appendingPathComponent(".flatpak/\(instanceID)")]
    }
}
