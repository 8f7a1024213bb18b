import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// libnotify's own notify-send cases (its `tests/test_notify_send.py`), written for this program started as
/// `notify-send`, against python-dbusmock's notification daemon as libnotify runs them: exactly one `Notify` per
/// run, the calling process's `sender-pid`, the server's id on `--id-fd`, and the server's signals for it ending a wait.
@Suite(
    "libnotify's notify-send cases: the notification server",
    .enabled(if: DBusMock.python != nil, "python-dbusmock is not installed; make test installs python3-dbusmock"))
struct LibnotifyNotifySendTests {
    /// The one `Notify` the server received, as its arguments.
    struct NotifyCall: Equatable, CustomStringConvertible {
        var appName = "notify-send"
        var replacesID: UInt32 = 0
        var appIcon = ""
        var summary = ""
        var body = ""
        var actions: [String] = []
        var hints: [String: DBusValue] = [:]
        var expireTimeout: Int32 = -1

        init(
            appName: String = "notify-send", replacesID: UInt32 = 0, appIcon: String = "", summary: String,
            body: String = "", actions: [String] = [], hints: [String: DBusValue], expireTimeout: Int32 = -1
        ) {
            (self.appName, self.replacesID, self.appIcon, self.summary, self.body) =
                (appName, replacesID, appIcon, summary, body)
            (self.actions, self.hints, self.expireTimeout) = (actions, hints, expireTimeout)
        }

        init(_ arguments: [DBusValue]) throws {
            let decoded = try arguments.decode(
                String.self, UInt32.self, String.self, String.self, String.self, [String].self,
                [String: DBusVariant].self, Int32.self)
            self.init(
                appName: decoded.0, replacesID: decoded.1, appIcon: decoded.2, summary: decoded.3, body: decoded.4,
                actions: decoded.5, hints: decoded.6.mapValues(\.value.unwrappedVariant), expireTimeout: decoded.7)
        }

        var description: String {
            "Notify(\(appName.debugDescription), \(replacesID), \(appIcon.debugDescription), "
                + "\(summary.debugDescription), \(body.debugDescription), \(actions), "
                + "\(hints.sorted { $0.key < $1.key }), \(expireTimeout))"
        }
    }

    /// Runs `arguments` to their end with success, and returns the one `Notify` with the run's process id.
    static func notifies(_ arguments: [String], on bus: PrivateBus, _ mock: DBusMock) async throws -> (
        NotifyCall, Int64
    ) {
        let run = try await NotifySendRun.start(arguments, on: bus)
        defer { run.remove() }
        let status = try await run.status()
        #expect(status == 0, "\(arguments): \(run.standardError)")
        return (try NotifyCall(try await mock.onlyCall("Notify")), run.pid)
    }

    @Test("no options: the summary and body, normal urgency, and the caller's process id as sender-pid")
    func noOptions() async throws {
        try await withMockedServer { bus, mock in
            let (call, pid) = try await Self.notifies(["title", "my text"], on: bus, mock)
            #expect(
                call
                    == NotifyCall(
                        summary: "title", body: "my text", hints: ["urgency": .byte(1), "sender-pid": .int64(pid)]))
        }
    }

    @Test("every option: -r, -t, -a, -n, -i, -c, -e, -h and -u reach Notify as libnotify sends them")
    func options() async throws {
        try await withMockedServer { bus, mock in
            let (call, pid) = try await Self.notifies(
                [
                    "--replace-id", "1234", "--expire-time", "27", "--app-name", "foo.App", "--app-icon",
                    "some-app-icon", "--icon", "some-icon", "--category", "some.category", "--transient", "--hint",
                    "string:desktop-entry:notify-send-app", "--urgency", "critical", "title", "my text",
                ], on: bus, mock)
            let expected = NotifyCall(
                appName: "foo.App", replacesID: 1234, appIcon: "some-app-icon", summary: "title", body: "my text",
                hints: [
                    "urgency": .byte(2), "sender-pid": .int64(pid), "image_path": .string("some-icon"),
                    "category": .string("some.category"), "desktop-entry": .string("notify-send-app"),
                    "transient": .boolean(true),
                ], expireTimeout: 27)
            #expect(call == expected, "the server reports specification 1.1, so the image is image_path")
        }
    }

    @Test(
        "-i alone is the image hint, a name or a file as given; -n alone is the app's icon", arguments: [true, false])
    func imageOrAppIcon(file: Bool) async throws {
        try await withMockedServer { bus, mock in
            let image = file ? "/bin/sh" : "my-image"
            let (call, pid) = try await Self.notifies(["image-only", "-i", image], on: bus, mock)
            #expect(
                call
                    == NotifyCall(
                        summary: "image-only",
                        hints: ["urgency": .byte(1), "sender-pid": .int64(pid), "image_path": .string(image)]))
        }
        try await withMockedServer { bus, mock in
            let (call, pid) = try await Self.notifies(["app-icon-only", "-n", "my-app-icon"], on: bus, mock)
            #expect(
                call
                    == NotifyCall(
                        appIcon: "my-app-icon", summary: "app-icon-only",
                        hints: ["urgency": .byte(1), "sender-pid": .int64(pid)]))
        }
    }

    @Test("-h of every type libnotify takes: int, double, byte (decimal or 0x), boolean, variant, string")
    func customHints() async throws {
        try await withMockedServer { bus, mock in
            let hints = [
                "int:int-hint:55", "double:double-hint:5.5", "byte:byte-hint:255", "byte:byte-hex-hint:0x11",
                "boolean:boolean-hint-true:true", "boolean:boolean-hint-TRUE:TRUE",
                "boolean:boolean-hint-not-true:not-true", "boolean:boolean-hint-false:false",
                "boolean:boolean-hint-FALSE:FALSE", "variant:variant-hint-dict:{'a': 1, 'b': 2}",
                "string:string-hint:string-hint-value", "string:empty-string-hint:",
            ]
            let (call, pid) = try await Self.notifies(hints.flatMap { ["-h", $0] } + ["hints!"], on: bus, mock)
            let dictionary = DBusValue.dictionary(
                key: "s", value: "i",
                [
                    DBusDictionaryEntry(key: .string("a"), value: .int32(1)),
                    DBusDictionaryEntry(key: .string("b"), value: .int32(2)),
                ])
            let expected = NotifyCall(
                summary: "hints!",
                hints: [
                    "urgency": .byte(1), "sender-pid": .int64(pid), "int-hint": .int32(55), "double-hint": .double(5.5),
                    "byte-hint": .byte(255), "byte-hex-hint": .byte(0x11), "boolean-hint-true": .boolean(true),
                    "boolean-hint-TRUE": .boolean(true), "boolean-hint-not-true": .boolean(false),
                    "boolean-hint-false": .boolean(false), "boolean-hint-FALSE": .boolean(false),
                    "variant-hint-dict": dictionary, "string-hint": .string("string-hint-value"),
                ])
            #expect(call == expected, "an empty string sets no hint")
        }
    }

    @Test("-A on a server without actions: libnotify's message, shown without them, no wait, status 1")
    func actionsNotSupported() async throws {
        try await withMockedServer { bus, mock in
            let run = try await NotifySendRun.start(
                ["action!", "Chose it", "--print-id", "--action=Foo", "--action=Bar=bar-item"], on: bus)
            defer { run.remove() }
            #expect(try await run.status() == 1)
            #expect(
                run.standardError.contains(
                    "Actions are not supported by this notifications server. Displaying non-interactively"),
                "\(run.standardError)")
            #expect(run.standardOutput == "1\n", "-p prints the server's id: \(run.standardOutput)")
            let call = try NotifyCall(try await mock.onlyCall("Notify"))
            #expect(
                call
                    == NotifyCall(
                        summary: "action!", body: "Chose it",
                        hints: ["urgency": .byte(1), "sender-pid": .int64(run.pid)]
                    ))
        }
    }

    @Test("-w ends when the server closes the id --id-fd wrote: no output, success")
    func closedByServer() async throws {
        try await withMockedServer { bus, mock in
            let run = try await NotifySendRun.start(["Wait me", "--wait"], descriptors: [.id], on: bus)
            defer { run.remove() }
            let id = try #require(UInt32(try await run.line(of: .id)), "--id-fd writes a decimal id")
            #expect(run.child.poll() == nil, "it waits")
            try await mock.emit("NotificationClosed", signature: "uu", [.uint32(id), .uint32(3)])
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("a script closes the notification by the id -p printed: the server's NotificationClosed ends -w")
    func closedByScript() async throws {
        try await withMockedServer { bus, mock in
            let run = try await NotifySendRun.start(["-p", "-w", "Close me"], on: bus)
            defer { run.remove() }
            let printed = try await withTimeout(.seconds(20), waitingFor: "-p to print the id") {
                while !run.standardOutput.hasSuffix("\n") { try await Task.sleep(for: .milliseconds(20)) }
                return run.standardOutput
            }
            let id = try #require(UInt32(printed.dropLast()), "-p printed \(printed.debugDescription)")
            _ = try await mock.connection.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "CloseNotification", arguments: [.int32(Int32(id))])
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput == printed, "nothing printed after the id")
        }
    }

    @Test("Ctrl-C while waiting: libnotify's message, CloseNotification for the shown id, success")
    func interrupted() async throws {
        try await withMockedServer { bus, mock in
            let run = try await NotifySendRun.start(["Wait and cancel me", "--wait"], descriptors: [.id], on: bus)
            defer { run.remove() }
            let id = try #require(UInt32(try await run.line(of: .id)))
            try await run.waitUntilItTakesSIGINT()
            run.child.signal(SIGINT)
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardError.contains("Wait cancelled, closing notification"), "\(run.standardError)")
            let closes = try await mock.calls("CloseNotification")
            #expect(closes.count == 1 && closes.first?.first?.uint32Value == id, "\(closes)")
        }
    }

    @Test("-r with the id -p printed: Notify replaces that id, and -p prints it again")
    func replacesPrintedID() async throws {
        try await withMockedServer { bus, mock in
            var printed: [String] = []
            for arguments in [["-p", "Download", "10%"], ["-p", "-r", "1", "Download", "90%"]] {
                let run = try await NotifySendRun.start(arguments, on: bus)
                defer { run.remove() }
                #expect(try await run.status() == 0, "\(run.standardError)")
                printed.append(run.standardOutput)
            }
            let calls = try await mock.calls("Notify").map(NotifyCall.init)
            #expect(printed == ["1\n", "1\n"])
            #expect(calls.map(\.replacesID) == [0, 1] && calls.map(\.body) == ["10%", "90%"], "\(calls)")
        }
    }
}

extension DBusValue {
    /// The number, when this is a `u` (or an `i` that fits).
    var uint32Value: UInt32? {
        switch self {
        case .uint32(let number): number
        case .int32(let number): UInt32(exactly: number)
        default: nil
        }
    }
}
