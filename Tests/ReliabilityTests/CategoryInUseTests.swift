import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

extension Reliability {
    /// A scheduled notification keeps the category it was posted with: removing that category is refused, before a
    /// restart and after, so the notification is shown with its actions when it comes due instead of being dropped.
    @Suite("categories in use")
    struct CategoryInUseTests {
        static let category = "org.example.oven.timer"

        @Test("RemoveCategory is refused while a scheduled notification uses it, also after a restart; it fires intact")
        func removalRefusedAcrossRestart() async throws {
            try await DaemonRig.with { rig in
                var daemon = try await rig.startDaemon()
                try await rig.call(
                    BridgeMethod.registerCategory.name,
                    [
                        .string(Self.category), plainActions("snooze"), .vardict([:]),
                    ])
                let id = try await rig.post([
                    PostKeys.title.name: .string("Oven"), PostKeys.category.name: .string(Self.category),
                    PostKeys.delay.name: .double(5),
                ])
                try await Self.expectRefusal(rig, naming: id)

                #expect(daemon.stop() == 0, "the daemon did not stop cleanly: \(rig.logText.suffix(2000))")
                daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                try await Self.expectRefusal(rig, naming: id)

                let shown = try await rig.nextNotification()
                #expect(shown.summary == "Oven")
                #expect(shown.actions.map(\.key).contains("snooze"), "\(shown.actions)")
                // Once it was shown, nothing waits for the category any more.
                try await rig.call(BridgeMethod.removeCategory.name, [.string(Self.category)])
            }
        }

        static func expectRefusal(_ rig: DaemonRig, naming id: String) async throws {
            let refused = await outcome { try await rig.call(BridgeMethod.removeCategory.name, [.string(category)]) }
            guard case .failure(let error as DBusFailure) = refused else {
                Issue.record("RemoveCategory was not refused: \(refused)")
                return
            }
            #expect(error.name == "io.github.NotificationBridge1.Error.InvalidArgument")
            #expect(error.message.contains(id), "\(error.message)")
            #expect(error.message.contains("withdraw"), "\(error.message)")
            let reply = try await rig.call(BridgeMethod.listCategories.name)
            guard case .array(_, let listed)? = reply.first else { throw TestSupportError("not a list: \(reply)") }
            #expect(
                listed.contains {
                    $0.stringKeyedEntries?[CategoryKeys.id.name]?.unwrappedVariant.stringValue == category
                })
        }
    }
}
