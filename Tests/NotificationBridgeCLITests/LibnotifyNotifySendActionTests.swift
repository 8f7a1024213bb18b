import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// libnotify's notify-send cases with actions, against python-dbusmock's notification daemon with the `actions`
/// capability: the server's `ActionInvoked` for the id `--id-fd` wrote ends the wait, and the action's name is printed
/// and written to `--selected-action-fd`, the token of the `ActivationToken` before it to `--activation-token-fd`.
@Suite(
    "libnotify's notify-send cases: actions",
    .enabled(if: DBusMock.python != nil, "python-dbusmock is not installed; make test installs python3-dbusmock"))
struct LibnotifyNotifySendActionTests {
    typealias NotifyCall = LibnotifyNotifySendTests.NotifyCall

    static let capabilities = DBusMock.defaultCapabilities + ["actions"]

    /// `-A` options for `actions` (a label, or a name and a label), and the `Notify` actions libnotify makes of them.
    static func options(_ actions: [(label: String, name: String?)]) -> ([String], [String]) {
        var names: [String] = []
        var labels: [String] = []
        var options: [String] = []
        for (index, action) in actions.enumerated() {
            let name = action.name ?? String(index)
            options.append("--action=" + (action.name.map { "\($0)=" } ?? "") + action.label)
            if let existing = names.firstIndex(where: { $0.lowercased() == name.lowercased() }) {
                names.remove(at: existing)
                labels.remove(at: existing)
            }
            names.append(name)
            labels.append(action.label)
        }
        return (options, zip(names, labels).flatMap { [$0, $1] })
    }

    /// Shows a notification with `actions` and checks its one `Notify`.
    static func show(
        _ actions: [(label: String, name: String?)], descriptors: [NotifySendRun.Descriptor] = [], on bus: PrivateBus,
        _ mock: DBusMock
    ) async throws -> (NotifySendRun, UInt32) {
        let (options, wire) = Self.options(actions)
        let run = try await NotifySendRun.start(
            ["action!", "Choose it"] + options, descriptors: [.id] + descriptors, on: bus)
        let id = try #require(UInt32(try await run.line(of: .id)), "--id-fd writes a decimal id")
        let call = try NotifyCall(try await mock.onlyCall("Notify"))
        #expect(
            call
                == NotifyCall(
                    summary: "action!", body: "Choose it", actions: wire,
                    hints: ["urgency": .byte(1), "sender-pid": .int64(run.pid)]))
        return (run, id)
    }

    static let twoActions: [(label: String, name: String?)] = [("Foo", nil), ("Bar", "bar-action")]

    @Test(
        "the server invokes an action of the id: its name printed and written, the token written, success",
        arguments: [
            ("0", twoActions), ("bar-action", twoActions),
            // Unnamed actions are numbered by their place among the -A options.
            ("2", [("foo", nil), ("default", "id"), ("baz", nil)]),
            // A name given again replaces the earlier action.
            ("foo-action", [("Foo", "foo-action"), ("FooBar", "foo-action")]),
        ] as [(String, [(label: String, name: String?)])])
    func activate(_ key: String, _ actions: [(label: String, name: String?)]) async throws {
        try await withMockedServer(capabilities: Self.capabilities) { bus, mock in
            let (run, id) = try await Self.show(
                actions, descriptors: [.selectedAction, .activationToken], on: bus, mock)
            defer { run.remove() }
            try await mock.emit("ActivationToken", signature: "us", [.uint32(id), .string("token-\(key)")])
            try await mock.emit("ActionInvoked", signature: "us", [.uint32(id), .string(key)])
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput == key + "\n")
            #expect(run.written(.selectedAction) == key + "\n")
            #expect(run.written(.activationToken) == "token-\(key)\n")
            let closes = try await mock.calls("CloseNotification")
            #expect(closes.map { $0.first?.uint32Value } == [id], "closed after the action, as libnotify does")
        }
    }

    @Test("an action the notification lacks: a warning, the wait goes on; Ctrl-C then ends it with nothing chosen")
    func unknownAction() async throws {
        try await withMockedServer(capabilities: Self.capabilities) { bus, mock in
            let (run, id) = try await Self.show([("Foo", "foo")], descriptors: [.selectedAction], on: bus, mock)
            defer { run.remove() }
            try await mock.emit("ActionInvoked", signature: "us", [.uint32(id), .string("bar")])
            try await run.waitForStandardError(containing: "Received unknown action bar")
            #expect(run.child.poll() == nil, "still waiting")
            try await run.waitUntilItTakesSIGINT()
            run.child.signal(SIGINT)
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardError.contains("Wait cancelled, closing notification"), "\(run.standardError)")
            #expect(!run.standardOutput.contains("bar"), "\(run.standardOutput)")
            #expect(run.written(.selectedAction).isEmpty)
        }
    }

    @Test("the server closes the notification while -A waits: nothing printed, success")
    func closed() async throws {
        try await withMockedServer(capabilities: Self.capabilities) { bus, mock in
            let (run, id) = try await Self.show([("Foo", nil)], on: bus, mock)
            defer { run.remove() }
            try await mock.emit("NotificationClosed", signature: "uu", [.uint32(id), .uint32(2)])
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("-p prints the server's id: the wait takes the signals for it, not those for another id")
    func printedID() async throws {
        try await withMockedServer(capabilities: Self.capabilities) { bus, mock in
            let run = try await NotifySendRun.start(["-p", "-A", "ok=OK", "Proceed?"], on: bus)
            defer { run.remove() }
            let printed = try await withTimeout(.seconds(20), waitingFor: "-p to print the id") {
                while !run.standardOutput.hasSuffix("\n") { try await Task.sleep(for: .milliseconds(20)) }
                return run.standardOutput
            }
            let id = try #require(UInt32(printed.dropLast()))
            try await mock.emit("ActionInvoked", signature: "us", [.uint32(id + 1), .string("ok")])
            try await mock.emit("NotificationClosed", signature: "uu", [.uint32(id), .uint32(2)])
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput == printed, "the other notification's action is not this one's")
        }
    }
}
