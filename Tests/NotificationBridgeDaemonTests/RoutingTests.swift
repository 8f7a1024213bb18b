import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Where responses go: the posting connection only, waiting calls, kept responses, an app's action.
@Suite("Response routing")
struct RoutingTests {
    private static func signalRule(_ member: String? = nil) -> DBusMatchRule {
        DBusMatchRule(
            sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: member)
    }

    @Test("Responded and Closed go to the posting connection only; another connection listening gets neither")
    func respondedOnlyToPoster() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let poster = try await fixture.bus.connect()
            let bystander = try await fixture.bus.connect()
            let posterSignals = try await poster.signals(matching: Self.signalRule())
            let bystanderSignals = try await bystander.signals(matching: Self.signalRule())
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Ann"),
                    PostKeys.actions.name: ActionList.textInput(id: "reply"),
                ], from: poster)
            let shown = try await fixture.nextNotification()
            // The bystander posts too, so that it receives something of its own after the poster's response.
            let other = try await fixture.post([PostKeys.title.name: .string("Bystander's own")], from: bystander)
            _ = try await fixture.nextNotification()

            try await fixture.scripted.reply(id: shown.id, text: "secret words")
            let responded = try await posterSignals.first(waitingFor: BridgeSignal.responded.name)
            #expect(responded.member == BridgeSignal.responded.name)
            #expect(responded.destination == poster.uniqueName)
            #expect(responded.arguments.first == .string(id))
            let response = responded.arguments[2].stringKeyedEntries
            #expect(response?[ResponseKeys.text.name] == .variant(.string("secret words")))
            let closed = try await posterSignals.first(waitingFor: BridgeSignal.closed.name)
            #expect(closed.member == BridgeSignal.closed.name)
            #expect(closed.arguments == [.string(id), .uint32(3)])

            // The daemon sends in order: had the bystander been sent the response, it would come before this.
            try await fixture.call(BridgeMethod.withdraw.name, [.string(other)], from: bystander)
            let first = try await bystanderSignals.first(waitingFor: "the bystander's own Closed")
            #expect(first.member == BridgeSignal.closed.name)
            #expect(first.arguments == [.string(other), .uint32(3)])
            await poster.close()
            await bystander.close()
        }
    }

    @Test("a response that came before WaitForResponse, its poster gone, is returned at once to any connection, once")
    func keptResponse() async throws {
        try await DaemonFixture.with { fixture in
            let poster = try await fixture.bus.connect()
            let id = try await fixture.post(
                [
                    PostKeys.title.name: .string("Build failed"), PostKeys.userInfo.name: .string(#"{"job": 7}"#),
                    PostKeys.actions.name: ActionList.plain(id: "retry", activation: "background"),
                ], from: poster)
            let shown = try await fixture.nextNotification()
            await poster.close()
            try await fixture.scripted.invokeAction(id: shown.id, key: "retry")
            _ = try await withTimeout(waitingFor: "the notification to close") {
                for await event in fixture.events { if case .closed = event { return } }
            }

            let reply = try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
            #expect(reply.first == .string("retry"))
            let entries = try #require(reply.last?.stringKeyedEntries)
            #expect(entries[ResponseKeys.userInfo.name] == .variant(.string(#"{"job":7}"#)))
            #expect(entries[ResponseKeys.activationToken.name] == nil, "background actions carry no token")
            #expect(entries[ResponseKeys.text.name] == nil)

            let again = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
            }
            #expect(again?.name == "io.github.NotificationBridge1.Error.Closed")
        }
    }

    @Test("a waiting WaitForResponse fails with Closed when the notification is withdrawn or dismissed")
    func pendingWaitFails() async throws {
        try await DaemonFixture.with { fixture in
            let withdrawn = try await fixture.post([PostKeys.title.name: .string("One")])
            _ = try await fixture.nextNotification()
            let dismissed = try await fixture.post([PostKeys.title.name: .string("Two")])
            let shown = try await fixture.nextNotification()

            let waiter = try await fixture.bus.connect()
            async let first = outcome {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(withdrawn)], from: waiter)
            }
            async let second = outcome {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(dismissed)], from: waiter)
            }
            // Calls of one connection are handled in order: once this is answered, both waits are registered.
            try await fixture.call(BridgeMethod.listCategories.name, from: waiter)

            try await fixture.call(BridgeMethod.withdraw.name, [.string(withdrawn)])
            try await fixture.scripted.dismiss(id: shown.id)
            let failures = [await first, await second].map { result -> DBusFailure? in
                if case .failure(let error as DBusFailure) = result { return error }
                return nil
            }
            #expect(failures.map(\.?.name) == Array(repeating: "io.github.NotificationBridge1.Error.Closed", count: 2))
            #expect(failures[0]?.message.contains("was withdrawn") == true)
            #expect(failures[1]?.message.contains("was dismissed by the user") == true)
            await waiter.close()
        }
    }

    @Test("a foreground action reaches the app's org.freedesktop.Application with the activation token")
    func appActionWithToken() async throws {
        try await DaemonFixture.with { fixture in
            let app = try await TestApplication.start(on: fixture.bus, id: "org.example.Mail")
            let posted = try await fixture.sh(GdbusScripts.appAction.script)
            let id = try postedID(posted.output)
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.invokeAction(id: shown.id, key: "open", activationToken: "token-1234")

            let call = try await app.calls.first(waitingFor: "ActivateAction")
            #expect(call.member == "ActivateAction")
            #expect(call.arguments.first == .string("open"))
            guard case .array(_, let parameters) = call.arguments[1], let parameter = parameters.first else {
                Issue.record("no parameter in \(call.arguments)")
                return
            }
            let response = try #require(parameter.unwrappedVariant.stringKeyedEntries)
            #expect(response[ResponseKeys.id.name] == .variant(.string(id)))
            #expect(response[ResponseKeys.action.name] == .variant(.string("open")))
            #expect(response[ResponseKeys.activationToken.name] == .variant(.string("token-1234")))
            let platformData = try #require(call.arguments[2].stringKeyedEntries)
            #expect(platformData["activation-token"] == .variant(.string("token-1234")))
            #expect(platformData["desktop-startup-id"] == .variant(.string("token-1234")))
            await app.stop()
        }
    }
}

/// Action lists for `Post`, as `aa{sv}`.
enum ActionList {
    static func plain(id: String, activation: String = "foreground") -> DBusValue {
        .array(
            element: "a{sv}",
            [
                .vardict([
                    ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id.capitalized),
                    ActionKeys.activation.name: .string(activation),
                ])
            ])
    }

    static func textInput(id: String, activation: String = "background") -> DBusValue {
        .array(
            element: "a{sv}",
            [
                .vardict([
                    ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id.capitalized),
                    ActionKeys.behavior.name: .string("text-input"),
                    ActionKeys.activation.name: .string(activation),
                ])
            ])
    }
}

/// A running app exporting `org.freedesktop.Application`, recording the calls it gets.
struct TestApplication: Sendable {
    let connection: DBusConnection
    let calls: AsyncStream<DBusMethodCall>

    static func start(on bus: PrivateBus, id: String) async throws -> TestApplication {
        let connection = try await bus.connect()
        let (calls, continuation) = AsyncStream.makeStream(of: DBusMethodCall.self)
        let record: @Sendable (DBusMethodCall) async throws -> [DBusValue] = { call in
            continuation.yield(call)
            return []
        }
        try await connection.export(
            [
                DBusInterface(
                    "org.freedesktop.Application",
                    methods: [
                        DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")], handler: record),
                        DBusMethod(
                            "ActivateAction",
                            inputs: [
                                .init("action_name", "s"), .init("parameter", "av"), .init("platform_data", "a{sv}"),
                            ],
                            handler: record),
                    ])
            ], at: try DBusObjectPath("/" + id.replacingOccurrences(of: ".", with: "/")))
        _ = try await connection.requestName(id)
        return TestApplication(connection: connection, calls: calls)
    }

    func stop() async {
        await connection.close()
    }
}
