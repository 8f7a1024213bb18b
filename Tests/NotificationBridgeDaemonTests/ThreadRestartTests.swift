import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// A thread of ten messages on a server that shows one notification per thread (dunst), across a restart of the
/// `notification-bridged` process: what the daemon told its clients it keeps is there after the restart as before.
@Suite("Threads across a daemon restart")
struct ThreadRestartTests {
    typealias Setup = SchedulingTests.Setup

    /// How the daemon is stopped: as a crash would (`kill -9`), or as the session's end does (`SIGTERM`).
    enum Stop: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case kill9 = "kill -9"
        case sigterm = "SIGTERM"

        var signal: Int32 { self == .kill9 ? SIGKILL : SIGTERM }
        var exitStatus: Int32 { self == .kill9 ? 128 + SIGKILL : 0 }
        var testDescription: String { rawValue }
    }

    /// Calls a method of the daemon from the test's client.
    @discardableResult
    private static func call(_ setup: Setup, _ method: BridgeMethod, _ arguments: [DBusValue]) async throws
        -> [DBusValue]
    {
        try await setup.client.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method.name, arguments: arguments, timeout: .seconds(20))
    }

    /// Posts message `number` of Ann's conversation, its responses going to `command`; returns its id.
    private static func postMessage(_ number: Int, _ setup: Setup, command: String, replacing: String? = nil)
        async throws -> String
    {
        var post: [String: DBusValue] = [
            PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Message \(number)"),
            PostKeys.appName.name: .string("Chat"), PostKeys.thread.name: .string("ann"),
            PostKeys.summaryArgument.name: .string("Ann"), PostKeys.category.name: .string(ThreadTests.chat),
            PostKeys.exec.name: .array(element: "s", [.string(command)]),
            // Never expiring: a loaded machine may take long for the restart.
            PostKeys.timeout.name: .int32(0),
        ]
        if let replacing { post[PostKeys.replaces.name] = .string(replacing) }
        let reply = try await call(setup, .post, [.vardict(post)])
        guard case .string(let id)? = reply.first else { throw TestSupportError("Post gave \(reply)") }
        return id
    }

    /// What `ListDelivered` gives, by id.
    private static func delivered(_ setup: Setup) async throws -> [String: ListedNotification] {
        let reply = try await call(setup, .listDelivered, [.vardict([:])])
        guard case .array(_, let values)? = reply.first else { throw TestSupportError("ListDelivered gave \(reply)") }
        return Dictionary(uniqueKeysWithValues: values.compactMap(ListedNotification.init).map { ($0.id, $0) })
    }

    /// The one notification the server shows, once its body is `body`.
    private static func shown(_ setup: Setup, body: String) async throws -> ServedNotification {
        try await withTimeout(waitingFor: "the server to show \(body.debugDescription); daemon log: \(setup.logText)") {
            while true {
                let shown = await setup.server.shownNotifications
                if shown.count == 1, shown[0].body == body { return shown[0] }
                if shown.count > 1 { throw TestSupportError("the server shows \(shown.count) notifications") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test(
        "ten messages of a thread are all kept: listed, withdrawn, replaced, counted and answered as before",
        arguments: Stop.allCases)
    func threadSurvivesRestart(_ stop: Stop) async throws {
        try await SchedulingTests.withSetup(.dunst) { setup in
            try FileManager.default.createDirectory(at: setup.stateHome, withIntermediateDirectories: true)
            let answers = setup.stateHome.appendingPathComponent("answers")
            let command = setup.stateHome.appendingPathComponent("record").path
            try ExecutableScript.write(
                """
                #!/bin/sh
                printf '%s %s' "$NOTIFICATION_ID" "$NOTIFICATION_ACTION" > "\(answers.path).$$"
                mv "\(answers.path).$$" "\(answers.path)"
                """, to: command)

            let first = try await setup.startDaemon()
            var options = WireEntries()
            options[CategoryOptionKeys.summaryFormat] = "%u new messages from %@"
            try await Self.call(
                setup, .registerCategory,
                [.string(ThreadTests.chat), ActionList.plain(id: "reply", activation: "background"), options.value])
            var ids: [String] = []
            for number in 1...10 { ids.append(try await Self.postMessage(number, setup, command: command)) }
            _ = try await Self.shown(setup, body: "Message 10\n10 new messages from Ann")
            #expect(try await Self.delivered(setup).count == 10)

            first.signal(stop.signal)
            #expect(await first.wait(within: .seconds(10)) == stop.exitStatus)
            let second = try await setup.startDaemon()
            defer { second.stop() }

            let listed = try await Self.delivered(setup)
            #expect(Set(listed.keys) == Set(ids), "all ten listed after the restart")
            #expect(listed.values.filter(\.isOnScreen).map(\.id) == [ids[9]], "the newest is the one on the screen")
            _ = try await Self.shown(setup, body: "Message 10\n10 new messages from Ann")

            // The next post counts on from ten.
            ids.append(try await Self.postMessage(11, setup, command: command))
            _ = try await Self.shown(setup, body: "Message 11\n11 new messages from Ann")

            // An earlier one is withdrawn: the count goes down.
            try await Self.call(setup, .withdraw, [.string(ids[2])])
            _ = try await Self.shown(setup, body: "Message 11\n10 new messages from Ann")

            // An earlier one is replaced where it is: listed with its new text, still behind the newest.
            let replaced = try await Self.postMessage(55, setup, command: command, replacing: ids[4])
            #expect(replaced == ids[4])
            let afterReplacing = try await Self.delivered(setup)
            #expect(afterReplacing[ids[4]]?.body == "Message 55")
            #expect(afterReplacing[ids[4]]?.isOnScreen == false)
            #expect(afterReplacing.count == 10)

            // The newest two are withdrawn: the ninth, stacked across the restart, comes back and answers to its
            // own command.
            try await Self.call(setup, .withdraw, [.string(ids[10])])
            _ = try await Self.shown(setup, body: "Message 10\n9 new messages from Ann")
            try await Self.call(setup, .withdraw, [.string(ids[9])])
            let ninth = try await Self.shown(setup, body: "Message 9\n8 new messages from Ann")
            try await setup.server.invokeAction(id: ninth.id, key: "reply")
            try await withTimeout(waitingFor: "the ninth's command to record the response") {
                while !FileManager.default.fileExists(atPath: answers.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: answers, encoding: .utf8) == "\(ids[8]) reply")
        }
    }
}
