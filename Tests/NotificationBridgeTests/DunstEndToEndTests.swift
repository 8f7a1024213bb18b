import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import Testing

@testable import NotificationBridge

/// The bridge against the real dunst, under Xvfb, on a private bus: a user picks each action from dunst's menu.
@Suite(.enabled(if: Dunst.isInstalled, "needs dunst and Xvfb; 'make test' installs them"))
struct DunstEndToEndTests {
    @Test func eachActionReachesItsHandlerWithTheRightResponse() async throws {
        try await withPrivateBus { bus in
            let dunst = try await Dunst.start(on: bus)
            defer { dunst.stop() }
            let prompt = try RoutingTests.promptScript(printing: "see you at 12 — ok? <b>&</b>")
            let connection = try await bus.connect()
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                BridgeFixture.configuration(on: bus, promptCommand: [prompt]))
            try await center.running {
                #expect(await center.serverInformation().name == "dunst")
                try await center.setNotificationCategories([BridgeFixture.message()])

                let received = AsyncStream.makeStream(of: NotificationResponse.self)
                for action in ["read", "delete", "reply"] {
                    await center.setHandler(forAction: action, inCategory: "message") { response in
                        received.continuation.yield(response)
                    }
                }

                // One notification per action: dunst closes a notification once an action is picked.
                for (title, label, action) in [
                    ("Ann", "#Mark as Read (Ann)", "read"), ("Bob", "#Delete (Bob)", "delete"),
                    ("Cy", "#Reply (Cy)", "reply"),
                ] {
                    let id = try await center.post(BridgeFixture.content(title: title))
                    try await dunst.invoke(actionLabel: label)
                    let response = try await received.stream.first(
                        within: .seconds(15), waitingFor: "dunst to invoke \(action); its menu was \(dunst.lastMenu)")
                    #expect(response.notificationID == id)
                    #expect(response.actionID == action)
                    #expect(response.userInfo == ["thread": .string("t-42")])
                    if action == "reply" {
                        #expect(response.userText == "see you at 12 — ok? <b>&</b>")
                    } else {
                        #expect(response.userText == nil)
                    }
                }
            }
            await connection.close()
        }
    }

    /// dunst keeps no quiet list: a passive notification shows briefly and expires by itself, while a critical one
    /// posted before it stays until the user acts.
    @Test func aPassiveNotificationExpiresByItselfWhileACriticalOneStays() async throws {
        try await withPrivateBus { bus in
            let dunst = try await Dunst.start(on: bus)
            defer { dunst.stop() }
            let connection = try await bus.connect()
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                BridgeFixture.configuration(on: bus, promptCommand: ["/bin/false"]))
            try await center.running {
                let events = center.events
                let alarm = try await center.post(
                    NotificationContent(title: "Smoke alarm", body: "Kitchen", interruptionLevel: .critical))
                let passive = try await center.post(
                    NotificationContent(title: "Photos", body: "Album ready", interruptionLevel: .passive))
                let closure = try await withTimeout(
                    .seconds(40), waitingFor: "dunst to expire the passive notification"
                ) {
                    for await event in events {
                        if case .closed(let closure) = event { return closure }
                    }
                    throw TestSupportError("the center's events ended")
                }
                #expect(closure.id == passive, "the first to close is the passive one")
                #expect(closure.reason == .expired)
                #expect(await center.deliveredNotifications().map(\.id) == [alarm], "the critical one is still up")
            }
            await connection.close()
        }
    }
}
