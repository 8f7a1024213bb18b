import DBusCore
import DBusTestSupport
import Foundation

/// One run of the built program under the name `notify-send`, as libnotify's tests start theirs: its standard output
/// and error kept in files, and `--id-fd`, `--selected-action-fd` and `--activation-token-fd` given files to write to
/// when asked for, so that a test can read the id while the program still waits.
struct NotifySendRun {
    let child: ChildProcess
    let folder: URL

    /// The descriptors the program may be given.
    enum Descriptor: Int32, CaseIterable {
        case id = 3
        case selectedAction = 4
        case activationToken = 5

        var option: String {
            switch self {
            case .id: "--id-fd"
            case .selectedAction: "--selected-action-fd"
            case .activationToken: "--activation-token-fd"
            }
        }

        var file: String { "fd\(rawValue)" }
    }

    /// Where the program posts: the notification server (`NOTIFY_IGNORE_PORTAL`) or the portal (`NOTIFY_FORCE_PORTAL`).
    enum Route {
        case server, portal
    }

    /// Starts the program with `arguments`, and the options for `descriptors` first, on `bus`.
    static func start(
        _ arguments: [String], descriptors: [Descriptor] = [], route: Route = .server, on bus: PrivateBus
    ) async throws -> NotifySendRun {
        let program = try await NotifySendPrograms.bridge()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-notify-send-run-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = bus.environment
        environment[route == .server ? "NOTIFY_IGNORE_PORTAL" : "NOTIFY_FORCE_PORTAL"] = "1"
        environment["NB_RUN_FOLDER"] = folder.path
        // exec: the shell's process becomes the program's, so its id is the sender-pid the server must get.
        let script =
            Descriptor.allCases.map { "\($0.rawValue)>\"$NB_RUN_FOLDER/\($0.file)\" " }.joined()
            + ">\"$NB_RUN_FOLDER/out\" 2>\"$NB_RUN_FOLDER/err\" exec \"$0\" \"$@\""
        let options = descriptors.map { "\($0.option)=\($0.rawValue)" }
        let child = try ChildProcess.spawn(
            ["/bin/sh", "-c", script, program] + options + arguments, environment: environment)
        return NotifySendRun(child: child, folder: folder)
    }

    var pid: Int64 { Int64(child.pid) }

    /// What the program wrote to standard output, to standard error, or to a descriptor, so far.
    func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    var standardOutput: String { text("out") }
    var standardError: String { text("err") }
    func written(_ descriptor: Descriptor) -> String { text(descriptor.file) }

    /// Waits until the program wrote a line to `descriptor` (or `file`), and returns it without its newline.
    func line(of descriptor: Descriptor) async throws -> String {
        try await line(in: descriptor.file, what: "notify-send to write to \(descriptor.option)")
    }

    /// Waits until standard error holds `text`.
    func waitForStandardError(containing text: String) async throws {
        try await withTimeout(.seconds(20), waitingFor: "notify-send to say \(text.debugDescription)") {
            while !standardError.contains(text) {
                if child.poll() != nil, !standardError.contains(text) {
                    throw TestSupportError("notify-send ended without saying it: \(standardError.debugDescription)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Waits until `file` has a whole line; the program may still run.
    private func line(in file: String, what: String) async throws -> String {
        try await withTimeout(.seconds(20), waitingFor: what) {
            while true {
                let written = text(file)
                if let end = written.firstIndex(of: "\n") { return String(written[..<end]) }
                if let status = child.poll() {
                    throw TestSupportError(
                        "notify-send ended (status \(status)) before \(what): \(standardError.debugDescription)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Waits until the program tells `ChildProcess` it handles SIGINT (it takes it only once it may wait).
    func waitUntilItTakesSIGINT() async throws {
        try await withTimeout(.seconds(20), waitingFor: "notify-send to take SIGINT") {
            while !NotifySendCompatibilityTests.takesSIGINT(child.pid) { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Waits for the program to end and returns its status.
    func status(within limit: Duration = .seconds(20)) async throws -> Int32 {
        guard let status = await child.wait(within: limit) else {
            _ = child.stop(grace: .seconds(1))
            throw TestSupportError("notify-send did not end within \(limit): \(standardError.debugDescription)")
        }
        return status
    }

    func remove() {
        _ = child.stop(grace: .seconds(1))
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `body` with python-dbusmock's notification daemon (`capabilities`) on a private bus of its own.
func withMockedServer<T: Sendable>(
    capabilities: [String] = DBusMock.defaultCapabilities, _ body: (PrivateBus, DBusMock) async throws -> T
) async throws -> T {
    try await withPrivateBus { bus in
        let mock = try await DBusMock.notificationDaemon(on: bus, capabilities: capabilities)
        do {
            let result = try await body(bus, mock)
            await mock.stop()
            return result
        } catch {
            await mock.stop()
            throw error
        }
    }
}

/// Runs `body` with a fake desktop portal (python-dbusmock) on a private bus of its own.
func withMockedPortal<T: Sendable>(_ body: (PrivateBus, DBusMock) async throws -> T) async throws -> T {
    try await withPrivateBus { bus in
        let mock = try await DBusMock.portal(on: bus)
        do {
            let result = try await body(bus, mock)
            await mock.stop()
            return result
        } catch {
            await mock.stop()
            throw error
        }
    }
}
