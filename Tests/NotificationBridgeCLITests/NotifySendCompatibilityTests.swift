import DBusCore
import DBusTestSupport
import Foundation
import NotificationServerKit
import Testing

/// The bridge started under the name `notify-send` against Debian's `notify-send` (libnotify-bin 0.8.1): the same
/// arguments, the same recording server, the same `Notify`, standard output and success or failure, where 0.8.1 and
/// libnotify's later releases agree (libnotify's own cases, for its main branch, are in LibnotifyNotifySendTests).
@Suite(
    "notify-send compatibility",
    .enabled(
        if: NotifySendPrograms.realNotifySend != nil, "notify-send is not installed; make test installs libnotify-bin"))
struct NotifySendCompatibilityTests {
    /// What one run of a program did.
    struct Run: CustomStringConvertible {
        var result: ProcessResult
        var notify: ServedNotification?

        var description: String {
            let call = notify.map { String(describing: NotifyCall($0)) } ?? "none"
            return "status \(result.status), stdout \(result.standardOutput.debugDescription), "
                + "stderr \(result.standardError.debugDescription), Notify \(call)"
        }
    }

    /// The parts of a `Notify` call a user can tell apart (`sender-pid` differs by nature).
    struct NotifyCall: Equatable, CustomStringConvertible {
        var appName: String
        var icon: String
        var summary: String
        var body: String
        var actions: [String]
        var hints: [String: DBusValue]
        var expireTimeout: Int32

        init(_ notification: ServedNotification) {
            appName = notification.appName
            icon = notification.icon
            summary = notification.summary
            body = notification.body
            actions = notification.actions.map(\.description)
            hints = notification.hints.filter { $0.key != "sender-pid" }.mapValues(\.unwrappedVariant)
            expireTimeout = notification.expireTimeout
        }

        var description: String {
            "(\(appName.debugDescription), icon \(icon.debugDescription), \(summary.debugDescription), "
                + "\(body.debugDescription), \(actions), \(hints.sorted { $0.key < $1.key }), \(expireTimeout))"
        }
    }

    /// Runs `arguments` with `program` on the fixture's bus; a `Notify` is awaited only when `notifies`.
    static func run(_ program: String, _ arguments: [String], on fixture: CLIFixture, notifies: Bool) async throws
        -> Run
    {
        let before = await fixture.server.calls.filter { $0.member == "Notify" }.count
        let result = try await ProcessRunner.run([program] + arguments, environment: fixture.environment)
        let notify = notifies ? try await fixture.nextNotification() : nil
        let after = await fixture.server.calls.filter { $0.member == "Notify" }.count
        #expect(after - before == (notifies ? 1 : 0), "\(program) \(arguments): \(after - before) Notify calls")
        return Run(result: result, notify: notify)
    }

    /// Command lines that post at once and exit.
    static let posting: [[String]] = [
        ["Title", "Body"],
        ["Only a title"],
        ["--", "-5 degrees"],
        ["Title", "--", "-u"],
        // Not -i: Debian's 0.8.1 sends it as the app's icon, libnotify's later releases as the image hint
        // (LibnotifyNotifySendTests).
        [
            "-u", "critical", "-t", "5000", "-a", "Mail", "-c", "email.arrived", "-e", "Subject",
            "Line one\\nline two\\ttab",
        ],
        ["--urgency=low", "--expire-time=0", "--app-name=Backup", "--category=transfer.complete", "Done"],
        [
            "-h", "int:x-level:5", "-h", "string:x-tag:a b:c", "-h", "double:x-ratio:1.5", "-h", "byte:x-byte:7",
            "-h", "boolean:x-flag:TRUE", "-h", "boolean:x-off:no", "-h", "variant:x-list:[1, 2]", "Hints",
        ],
        [
            "-h", "string:desktop-entry:org.example.Mail", "-h", "boolean:transient:true", "-h", "string:category:im",
            "-c",
            "email", "Mapped hints",
        ],
        ["-pe", "Grouped", "flags"],
        ["Title", "Tom & Jerry <b>bold</b>"],
    ]

    @Test("the same Notify, output and success as notify-send", arguments: posting)
    func posts(_ arguments: [String]) async throws {
        try await CLIFixture.with { fixture in
            let real = try await Self.run(try NotifySendPrograms.real(), arguments, on: fixture, notifies: true)
            let bridge = try await Self.run(
                try await NotifySendPrograms.bridge(), arguments, on: fixture, notifies: true)
            #expect(real.result.status == 0 && bridge.result.status == 0, "notify-send: \(real); bridge: \(bridge)")
            #expect(
                bridge.notify.map(NotifyCall.init) == real.notify.map(NotifyCall.init),
                "notify-send: \(real); bridge: \(bridge)")
            if arguments.contains(where: { $0.hasPrefix("-p") }) {
                #expect(Int32(bridge.result.output) != nil, "-p prints a decimal id: \(bridge)")
                #expect(Int32(real.result.output) != nil, "\(real)")
            } else {
                #expect(bridge.result.standardOutput == real.result.standardOutput)
            }
        }
    }

    /// Mistakes on the command line: no `Notify`, the same message, a failure.
    static let mistakes: [[String]] = [
        [], ["-h", "int:x", "T"], ["-h", "int:x:abc", "T"], ["-h", "foo:x:1", "T"], ["-h", "double:x:.5", "T"],
        ["-h", "byte:x:300", "T"], ["-u", "loud", "T"], ["A", "B", "C"], ["-t", "soon", "T"], ["-t5000", "T"],
        ["-x", "T"], ["--no-such-option", "T"], ["-5 degrees"], ["-r", "4294967296", "T"], ["-u"],
    ]

    @Test("a mistake: the same message on standard error, nothing sent, a non-zero status", arguments: mistakes)
    func refuses(_ arguments: [String]) async throws {
        try await CLIFixture.with { fixture in
            let real = try await Self.run(try NotifySendPrograms.real(), arguments, on: fixture, notifies: false)
            let bridge = try await Self.run(
                try await NotifySendPrograms.bridge(), arguments, on: fixture, notifies: false)
            #expect(real.result.status != 0 && bridge.result.status != 0, "notify-send: \(real); bridge: \(bridge)")
            #expect(bridge.result.standardError == real.result.standardError, "notify-send: \(real); bridge: \(bridge)")
            #expect(bridge.result.standardOutput.isEmpty)
        }
    }

    @Test("-A waits and prints the chosen action's name, or its index without NAME=")
    func actions() async throws {
        try await CLIFixture.with { fixture in
            let arguments = ["-A", "yes=Yes", "-A", "Maybe", "-A", "  no = No ", "Proceed?"]
            for (key, expected) in [("yes", "yes"), ("1", "1"), ("no", "no")] {
                var runs: [String: Run] = [:]
                for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                    async let result = ProcessRunner.run([program] + arguments, environment: fixture.environment)
                    let shown = try await fixture.nextNotification()
                    try await fixture.server.invokeAction(id: shown.id, key: key)
                    runs[program] = Run(result: try await result, notify: shown)
                }
                let (real, bridge) = (
                    runs[try NotifySendPrograms.real()]!, runs[try await NotifySendPrograms.bridge()]!
                )
                #expect(bridge.notify.map(NotifyCall.init) == real.notify.map(NotifyCall.init), "\(real) \(bridge)")
                #expect(real.result.standardOutput == expected + "\n", "\(real)")
                #expect(bridge.result.standardOutput == real.result.standardOutput, "\(bridge)")
                #expect(bridge.result.status == 0 && real.result.status == 0, "\(real) \(bridge)")
            }
        }
    }

    @Test("-w returns when the server closes the notification: no output, success")
    func waitUntilClosed() async throws {
        try await CLIFixture.with { fixture in
            for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                async let result = ProcessRunner.run([program, "-w", "Wait for me"], environment: fixture.environment)
                let shown = try await fixture.nextNotification()
                try await fixture.server.dismiss(id: shown.id)
                let finished = try await result
                #expect(finished.status == 0, "\(program): \(finished.standardError)")
                #expect(finished.standardOutput.isEmpty, "\(program): \(finished.standardOutput)")
            }
        }
    }

    @Test("Ctrl-C while waiting closes the notification, says so and succeeds")
    func interruptedWait() async throws {
        try await CLIFixture.with { fixture in
            for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nb-sigint-\(UUID())")
                FileManager.default.createFile(atPath: errors.path, contents: nil)
                defer { try? FileManager.default.removeItem(at: errors) }
                let handle = try FileHandle(forWritingTo: errors)
                let child = try ChildProcess.spawn(
                    [program, "-w", "-A", "ok=OK", "Interrupt me"], environment: fixture.environment,
                    standardError: handle.fileDescriptor)
                try handle.close()
                let shown = try await fixture.nextNotification()
                // notify-send takes SIGINT only once it waits (before, Ctrl-C just ends it): wait for that.
                try await withTimeout(waitingFor: "\(program) to take SIGINT") {
                    while !Self.takesSIGINT(child.pid) { try await Task.sleep(for: .milliseconds(10)) }
                }
                child.signal(SIGINT)
                let status = await child.wait(within: .seconds(10))
                let message = try String(contentsOf: errors, encoding: .utf8)
                #expect(
                    status == 0,
                    "\(program) exits 0 after Ctrl-C, as notify-send does: \(String(describing: status)) \(message)")
                #expect(message.contains("Wait cancelled, closing notification"), "\(program): \(message)")
                let closed = try await withTimeout(waitingFor: "the notification to close after Ctrl-C") {
                    for await event in fixture.events {
                        if case .closed(let notification, let reason) = event, notification.id == shown.id {
                            return reason
                        }
                    }
                    throw TestSupportError("the server stopped")
                }
                #expect(closed == .closedByCall, "\(program)")
            }
        }
    }

    @Test("-r with the id -p printed replaces that notification in place, as with notify-send")
    func replacePrintedID() async throws {
        try await CLIFixture.with { fixture in
            for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                let printed = try await ProcessRunner.run(
                    [program, "-p", "Download", "10%"], environment: fixture.environment)
                let id = try #require(Int32(printed.output), "\(program) -p printed \(printed.output.debugDescription)")
                let original = try await fixture.nextNotification()
                #expect(UInt32(bitPattern: id) == original.id, "\(program) -p prints the server's id")
                let update = try await ProcessRunner.run(
                    [program, "-p", "-r", String(id), "Download", "90%"], environment: fixture.environment)
                #expect(update.output == printed.output, "\(program) -p prints the same id again")
                let updated = try await Self.nextShown(fixture)
                #expect(updated.replacesID == original.id, "\(program) -r \(id) replaces in place")
                #expect(updated.body == "90%")
            }
        }
    }
}

extension NotifySendCompatibilityTests {
    /// Whether process `pid` catches or blocks SIGINT (a handler, or a signalfd), from `/proc/PID/status`.
    static func takesSIGINT(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let bit: UInt64 = 1 << UInt64(SIGINT - 1)
        return status.split(separator: "\n").contains { line in
            guard line.hasPrefix("SigCgt:") || line.hasPrefix("SigBlk:"),
                let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16)
            else { return false }
            return mask & bit != 0
        }
    }

    /// The next notification the server shows, new or replacing another.
    static func nextShown(_ fixture: CLIFixture) async throws -> ServedNotification {
        let events = fixture.events
        return try await withTimeout(waitingFor: "the notification server to show or replace a notification") {
            for await event in events {
                switch event {
                case .notified(let notification), .replaced(_, let notification): return notification
                default: continue
                }
            }
            throw TestSupportError("the server stopped")
        }
    }
}

/// The two programs compared.
enum NotifySendPrograms {
    static let realNotifySend = ExecutableLookup.find("notify-send")?.path

    static func real() throws -> String {
        guard let realNotifySend else { throw TestSupportError("notify-send is not installed") }
        return realNotifySend
    }

    /// The built `notification-bridge` under the name `notify-send`: a link in a folder of its own.
    static func bridge() async throws -> String {
        let built = try await BuiltPrograms.path(of: "notification-bridge")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-notify-send-\(getpid())")
        let link = folder.appendingPathComponent("notify-send")
        if FileManager.default.isExecutableFile(atPath: link.path) { return link.path }
        // A folder of its own for each attempt, renamed into place: tests running at once may all get here.
        let attempt = FileManager.default.temporaryDirectory.appendingPathComponent("nb-notify-send-\(UUID())")
        try FileManager.default.createDirectory(at: attempt, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: attempt.appendingPathComponent("notify-send").path, withDestinationPath: built)
        if rename(attempt.path, folder.path) != 0 { try? FileManager.default.removeItem(at: attempt) }
        return link.path
    }
}
