import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// `Post`'s `hints`: server hints of the caller's own reach the server as given, after the bridge's; the hints the
/// bridge sets itself are refused with the key to use instead.
@Suite("Post hints")
struct HintsTests {
    static let invalid = "io.github.NotificationBridge1.Error.InvalidArgument"

    @Test("custom hints reach the server's Notify as given, nested variants included, beside the bridge's own")
    func forwarded() async throws {
        try await DaemonFixture.with { fixture in
            let nested = DBusValue.variant(.vardict(["a": .array(element: "i", [.int32(1), .int32(2)])]))
            _ = try await fixture.post([
                PostKeys.title.name: .string("Volume"), PostKeys.urgency.name: .string("critical"),
                PostKeys.hints.name: .vardict([
                    "x-canonical-private-synchronous": .string("volume"), "value": .int32(42), "x-nested": nested,
                    "category": .string("device.added"),
                ]),
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.hints["x-canonical-private-synchronous"] == .string("volume"))
            #expect(shown.hints["value"] == .int32(42))
            #expect(shown.hints["x-nested"] == nested)
            #expect(shown.category == "device.added")
            #expect(shown.urgency == 2, "the bridge's urgency hint is still sent")
            #expect(shown.hints["sender-pid"] != nil)
        }
    }

    @Test("a scheduled notification keeps its hints until it fires")
    func scheduled() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.post([
                PostKeys.title.name: .string("Later"), PostKeys.delay.name: .double(0.5),
                PostKeys.hints.name: .vardict(["x-tag": .structure([.string("a"), .uint32(7)])]),
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "Later")
            #expect(shown.hints["x-tag"] == .structure([.string("a"), .uint32(7)]))
        }
    }

    @Test(
        "hints the bridge sets are refused, naming the key to use instead; the daemon keeps serving",
        arguments: [
            (["urgency": DBusValue.byte(2)], "has 'urgency', which the bridge sets itself; use the key 'urgency'"),
            (["image-path": .string("/a.png")], "use the key 'image'"),
            (["sound-name": .string("bell")], "use the key 'sound'"),
            (["suppress-sound": .boolean(true)], "use the key 'sound' with <'none'>"),
            (["transient": .boolean(true)], "use the key 'transient'"),
            (["sender-pid": .int64(1)], "the bridge sends its own process id"),
            (["x-kde-reply-placeholder-text": .string("x")], "text-input action's 'text-input-placeholder'"),
            (["x-kde-reply-future": .string("x")], "x-kde-reply-* hints"),
        ])
    func owned(hints: [String: DBusValue], says: String) async throws {
        try await DaemonFixture.with { fixture in
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.post([PostKeys.title.name: .string("T"), PostKeys.hints.name: .vardict(hints)])
            }
            #expect(error?.name == Self.invalid)
            #expect(error?.message.contains("notification key 'hints'") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
            _ = try await fixture.post([PostKeys.title.name: .string("Still serving")])
            #expect(try await fixture.nextNotification().summary == "Still serving")
        }
    }

    @Test("the key 'category' and the server's 'category' hint go together; hints of another type than a{sv} do not")
    func conflicts() async throws {
        try await DaemonFixture.with { fixture in
            try await fixture.call(
                BridgeMethod.registerCategory.name,
                [
                    .string("mail"),
                    .array(
                        element: "a{sv}",
                        [
                            .vardict([
                                ActionKeys.id.name: .string("ok"), ActionKeys.title.name: .string("OK"),
                            ])
                        ]),
                    .vardict([:]),
                ])
            // The bridge's category names its actions; the hint is the freedesktop vocabulary, sent as given.
            _ = try await fixture.post([
                PostKeys.title.name: .string("T"), PostKeys.category.name: .string("mail"),
                PostKeys.hints.name: .vardict(["category": .string("email.arrived")]),
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.category == "email.arrived")
            #expect(shown.actions.map(\.key).contains("ok"))
            let wrong = await #expect(throws: DBusFailure.self) {
                try await fixture.post([PostKeys.title.name: .string("T"), PostKeys.hints.name: .strings(["x"])])
            }
            #expect(wrong?.message.contains("key 'hints' holds") == true, "\(wrong?.message ?? "")")
            #expect(wrong?.message.contains("'a{sv}'") == true, "\(wrong?.message ?? "")")
        }
    }
}
