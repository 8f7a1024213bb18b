import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `Post`'s `fixed-id` (an id of the caller's choosing, as a numeric `notify-send -r` needs) and `body-is-markup` (a
/// body that is markup already, as notify-send's is).
@Suite("Post fixed-id and body-is-markup")
struct FixedIDTests {
    static let invalid = "io.github.NotificationBridge1.Error.InvalidArgument"
    static let id = "000000000000270f"

    @Test("the first post shows it under the id, the next updates it in place, after a close it is new again")
    func showsThenReplaces() async throws {
        try await DaemonFixture.with { fixture in
            let first = try await fixture.post([
                PostKeys.title.name: .string("Volume"), PostKeys.body.name: .string("50%"),
                PostKeys.fixedID.name: .string(Self.id),
            ])
            #expect(first == Self.id)
            let shown = try await fixture.nextNotification()
            #expect(shown.replacesID == 0)

            let second = try await fixture.post([
                PostKeys.title.name: .string("Volume"), PostKeys.body.name: .string("60%"),
                PostKeys.fixedID.name: .string(Self.id),
            ])
            #expect(second == Self.id)
            let events = fixture.events
            let replaced = try await withTimeout(waitingFor: "the server to replace the notification") {
                for await event in events {
                    if case .replaced(_, let current) = event { return current }
                }
                throw TestSupportError("the server stopped")
            }
            #expect(replaced.replacesID == shown.id && replaced.body == "60%")

            try await fixture.scripted.dismiss(id: replaced.id)
            try await fixture.nextClosure(of: replaced.id)
            // The daemon hears of the close through a signal: ask until it shows a new one under the same id.
            let third = try await withTimeout(waitingFor: "a post under the closed id to show a new notification") {
                while true {
                    _ = try await fixture.post([
                        PostKeys.title.name: .string("Volume"), PostKeys.body.name: .string("70%"),
                        PostKeys.fixedID.name: .string(Self.id),
                    ])
                    for await event in events {
                        switch event {
                        case .notified(let notification): return notification
                        case .replaced: break
                        default: continue
                        }
                        break
                    }
                }
            }
            // Shown as a new notification: a post whose Notify still named the closed id (sent before the daemon read
            // the close) is shown anew too, as a server shows a replacement of an id it no longer has.
            #expect(third.body == "70%")
        }
    }

    @Test("another app's notification, a malformed id, and replaces with fixed-id are refused")
    func refused() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.post([
                PostKeys.title.name: .string("Mine"), PostKeys.appName.name: .string("A"),
                PostKeys.fixedID.name: .string(Self.id),
            ])
            _ = try await fixture.nextNotification()
            let cases: [([String: DBusValue], String)] = [
                (
                    [
                        PostKeys.title.name: .string("Theirs"), PostKeys.appName.name: .string("B"),
                        PostKeys.fixedID.name: .string(Self.id),
                    ], "belongs to app 'A'"
                ),
                (
                    [PostKeys.title.name: .string("T"), PostKeys.fixedID.name: .string("42")],
                    "is not a notification id"
                ),
                (
                    [
                        PostKeys.title.name: .string("T"), PostKeys.fixedID.name: .string(Self.id),
                        PostKeys.replaces.name: .string(Self.id),
                    ], "keep one of them"
                ),
            ]
            for (notification, says) in cases {
                let error = await #expect(throws: DBusFailure.self) { try await fixture.post(notification) }
                #expect(error?.name == Self.invalid)
                #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
            }
        }
    }

    @Test("body-is-markup: the body reaches a markup server as given; without it, it is escaped")
    func markupBody() async throws {
        try await DaemonFixture.with { fixture in
            let body = "Tom & Jerry <b>bold</b>"
            _ = try await fixture.post([
                PostKeys.title.name: .string("T"), PostKeys.body.name: .string(body),
                PostKeys.bodyMarkup.name: .boolean(true),
            ])
            #expect(try await fixture.nextNotification().body == body)
            _ = try await fixture.post([PostKeys.title.name: .string("T"), PostKeys.body.name: .string(body)])
            #expect(try await fixture.nextNotification().body == "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;")
        }
    }
}
