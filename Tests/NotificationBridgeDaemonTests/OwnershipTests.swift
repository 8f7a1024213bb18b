import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Who may change or see a notification, replacing it, categories, and waiting calls whose caller left.
@Suite("Ownership, replacing, categories")
struct OwnershipTests {
    @Test("replaces updates the notification in place under the same id; another app may not replace it")
    func replace() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Copying… 10%"), PostKeys.appName.name: .string("Files"),
            ])
            let first = try await fixture.nextNotification()
            let again = try await fixture.post([
                PostKeys.title.name: .string("Copying… 90%"), PostKeys.appName.name: .string("Files"),
                PostKeys.replaces.name: .string(id),
            ])
            #expect(again == id)
            let replaced = try await withTimeout(waitingFor: "the replacement") {
                for await event in fixture.events {
                    if case .replaced(let previous, let current) = event { return (previous, current) }
                }
                throw TestSupportError("no replacement")
            }
            #expect(replaced.0.id == first.id)
            #expect(replaced.1.summary == "Copying… 90%")
            #expect(replaced.1.replacesID == first.id)

            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.post([
                    PostKeys.title.name: .string("Mine now"), PostKeys.appName.name: .string("Intruder"),
                    PostKeys.replaces.name: .string(id),
                ])
            }
            #expect(error?.name == "io.github.NotificationBridge1.Error.InvalidArgument")
            #expect(error?.message.contains("belongs to app 'Files'") == true, "\(error?.message ?? "")")

            let listed = try await fixture.call(
                BridgeMethod.listDelivered.name,
                [
                    .vardict([
                        FilterKeys.appName.name: .string("Files")
                    ])
                ])
            guard case .array(_, let items) = listed[0], let only = items.first?.stringKeyedEntries else {
                Issue.record("nothing listed: \(listed)")
                return
            }
            #expect(items.count == 1)
            #expect(only[PostKeys.title.name] == .variant(.string("Copying… 90%")))
        }
    }

    @Test("without app-name, ListDelivered and WithdrawAll see only the caller's own notifications")
    func callersOwn() async throws {
        try await DaemonFixture.with { fixture in
            let other = try await fixture.bus.connect()
            let theirs = try await fixture.post(
                [
                    PostKeys.title.name: .string("Theirs"), PostKeys.appName.name: .string("Other"),
                ], from: other)
            let mine = try await fixture.post([
                PostKeys.title.name: .string("Mine"), PostKeys.appName.name: .string("Other"),
            ])

            let withdrawn = try await fixture.call(BridgeMethod.withdrawAll.name, [.vardict([:])])
            #expect(withdrawn == [.strings([mine])])
            let listed = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])], from: other)
            guard case .array(_, let items) = listed[0] else { throw TestSupportError("not a list: \(listed)") }
            #expect(items.compactMap { $0.stringKeyedEntries?[ListedKeys.id.name] } == [.variant(.string(theirs))])
            #expect(
                try await fixture.call(BridgeMethod.listPending.name, [.vardict([:])]) == [.array(element: "a{sv}", [])]
            )
            await other.close()
        }
    }

    @Test("WaitForResponse is refused for a notification whose responses go to a command")
    func waitRefusedForCommand() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Run"), PostKeys.exec.name: .strings(["/bin/true"]),
            ])
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
            }
            #expect(error?.name == "io.github.NotificationBridge1.Error.NotSupported")
            #expect(error?.message.contains("sends its responses to its 'exec' command") == true)
        }
    }

    @Test("a waiting call whose connection left does not take the response: the next WaitForResponse gets it")
    func waiterLeaves() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.plain(id: "ok"),
            ])
            let shown = try await fixture.nextNotification()
            let leaving = try await fixture.bus.connect()
            let left = try await fixture.client.nameOwnerChanges(of: leaving.uniqueName)
            async let abandoned = outcome {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: leaving)
            }
            try await fixture.call(BridgeMethod.listCategories.name, from: leaving)
            await leaving.close()
            _ = await abandoned
            try await withTimeout(waitingFor: "the waiting connection to leave") {
                for await owner in left where owner == nil { return }
            }
            // The daemon follows NameOwnerChanged too; a round trip after it has been broadcast lets it catch up.
            try await fixture.call(BridgeMethod.listCategories.name)

            try await fixture.scripted.invokeAction(id: shown.id, key: "ok")
            let reply = try await withTimeout(waitingFor: "the kept response") {
                while true {
                    if case .success(let reply) = await outcome({
                        try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
                    }) {
                        return reply
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(reply.first == .string("ok"))
        }
    }

    @Test("ListCategories returns what RegisterCategory took; RemoveCategory removes it")
    func categories() async throws {
        try await DaemonFixture.with { fixture in
            let registered = try await fixture.sh(GdbusScripts.registerCategory.script)
            #expect(registered.status == 0, "\(registered.standardError)")
            let listed = try await fixture.gdbus(BridgeMethod.listCategories.name)
            #expect(listed.output.contains("'id': <'org.example.mail.message'>"), "\(listed.output)")
            #expect(listed.output.contains("'minimal-actions': <['reply', 'archive']>"), "\(listed.output)")
            #expect(listed.output.contains("'text-input-placeholder': <'Your answer'>"), "\(listed.output)")
            #expect(listed.output.contains("'destructive': <true>"), "\(listed.output)")

            let removed = try await fixture.gdbus(BridgeMethod.removeCategory.name, "org.example.mail.message")
            #expect(removed.output == "()", "\(removed.standardError)")
            #expect(try await fixture.gdbus(BridgeMethod.listCategories.name).output == "(@aa{sv} [],)")
        }
    }
}
