import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Running apps: `Attach` takes the responses of an app whose posting connection has gone, and, in the foreground,
/// the app's scheduled notifications instead of the server.
@Suite("Attached apps")
struct AttachTests {
    private static func signalRule(_ member: String) -> DBusMatchRule {
        DBusMatchRule(
            sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: member)
    }

    @Test("a response to a notification whose poster left goes to the most recently attached connection of its app")
    func responseToAttachedApp() async throws {
        try await DaemonFixture.with { fixture in
            let poster = try await fixture.bus.connect()
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Build failed"), PostKeys.appName.name: .string("CI"),
                    PostKeys.actions.name: ActionList.plain(id: "retry", activation: "background"),
                ], from: poster)
            let shown = try await fixture.nextNotification()
            await poster.close()

            let earlier = try await fixture.bus.connect()
            let latest = try await fixture.bus.connect()
            let earlierSignals = try await earlier.signals(matching: Self.signalRule(BridgeSignal.responded.name))
            let latestSignals = try await latest.signals(matching: Self.signalRule(BridgeSignal.responded.name))
            try await fixture.call(BridgeMethod.attach.name, [.string("CI"), .vardict([:])], from: earlier)
            try await fixture.call(BridgeMethod.attach.name, [.string("CI"), .vardict([:])], from: latest)

            try await fixture.scripted.invokeAction(id: shown.id, key: "retry")
            let responded = try await latestSignals.first(waitingFor: "Responded on the attached connection")
            #expect(responded.destination == latest.uniqueName)
            #expect(responded.arguments.prefix(2) == [.string(id), .string("retry")])

            // The earlier one gets nothing: when the latest detaches, it counts again, and the next response it gets
            // is the first one it is sent.
            try await fixture.call(BridgeMethod.detach.name, [.string("CI")], from: latest)
            let second = try await fixture.post(
                [
                    PostKeys.title.name: .string("Build failed again"), PostKeys.appName.name: .string("CI"),
                    PostKeys.actions.name: ActionList.plain(id: "retry", activation: "background"),
                ], from: latest)
            let shownAgain = try await fixture.nextNotification()
            await latest.close()
            try await fixture.scripted.invokeAction(id: shownAgain.id, key: "retry")
            let toEarlier = try await earlierSignals.first(waitingFor: "Responded on the earlier connection")
            #expect(toEarlier.arguments.first == .string(second), "the earlier connection got the first response")
            await earlier.close()
        }
    }

    @Test("in the foreground, the app's scheduled notification comes to it as Fired, not shown; Present shows it")
    func foregroundTakesFiring() async throws {
        try await DaemonFixture.with { fixture in
            let app = try await fixture.bus.connect()
            let fired = try await app.signals(matching: Self.signalRule(BridgeSignal.fired.name))
            try await fixture.call(
                BridgeMethod.attach.name,
                [
                    .string("Kettle"),
                    .vardict([
                        AttachOptionKeys.foreground.name: .boolean(true)
                    ]),
                ], from: app)
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Tea"), PostKeys.appName.name: .string("Kettle"),
                    PostKeys.delay.name: .double(0.2),
                ], from: app)

            let signal = try await fired.first(waitingFor: BridgeSignal.fired.name)
            #expect(signal.destination == app.uniqueName)
            #expect(signal.arguments.first == .string(id))
            #expect(signal.arguments.last?.stringKeyedEntries?[PostKeys.title.name] == .variant(.string("Tea")))

            // Had the notification been shown, the server would have received it before this one.
            _ = try await fixture.post([PostKeys.title.name: .string("Marker")])
            #expect(try await fixture.nextNotification().summary == "Marker")
            let other = try await fixture.bus.connect()
            let refused = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.present.name, [.string(id)], from: other)
            }
            #expect(refused?.name == "io.github.NotificationBridge1.Error.UnknownApp")
            await other.close()

            try await fixture.call(BridgeMethod.present.name, [.string(id)], from: app)
            #expect(try await fixture.nextNotification().summary == "Tea")
            await app.close()
        }
    }

    @Test("in the background (or detached), the app's scheduled notification is shown by the server")
    func backgroundIsShown() async throws {
        try await DaemonFixture.with { fixture in
            let app = try await fixture.bus.connect()
            try await fixture.call(
                BridgeMethod.attach.name,
                [
                    .string("Kettle"),
                    .vardict([
                        AttachOptionKeys.foreground.name: .boolean(false)
                    ]),
                ], from: app)
            _ = try await fixture.post([
                PostKeys.title.name: .string("Tea"), PostKeys.appName.name: .string("Kettle"),
                PostKeys.delay.name: .double(0.1),
            ])
            #expect(try await fixture.nextNotification().summary == "Tea")
            await app.close()
        }
    }

    @Test("bad Attach and Detach calls get errors that say what to do")
    func badCalls() async throws {
        try await DaemonFixture.with { fixture in
            let unknown = await #expect(throws: DBusFailure.self) {
                try await fixture.call(
                    BridgeMethod.attach.name, [.string("CI"), .vardict(["foregound": .boolean(true)])])
            }
            #expect(unknown?.message.contains("did you mean 'foreground'?") == true, "\(unknown?.message ?? "")")
            let notAttached = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.detach.name, [.string("CI")])
            }
            #expect(notAttached?.name == "io.github.NotificationBridge1.Error.UnknownApp")
            let empty = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.attach.name, [.string(""), .vardict([:])])
            }
            #expect(empty?.name == "io.github.NotificationBridge1.Error.InvalidArgument")
        }
    }
}
