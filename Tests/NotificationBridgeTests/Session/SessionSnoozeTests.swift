import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// The session's own snooze buttons: a press on one is reported as a snooze of that notification for that button's
/// interval, never as a response whose action key its owner would have to read.
@Suite("Snooze buttons at the session")
struct SessionSnoozeTests {
    static let intervals: [SnoozeInterval] = [.minutes(10), .hours(1), SnoozeInterval(seconds: 45)]

    /// What the session reports after a press: the snooze, or the response, whichever comes first.
    enum Reported: Sendable, Equatable {
        case snoozed(id: String, seconds: Int)
        case responded(id: String, actionID: String)
    }

    static func nextReport(of session: NotificationServerSession, _ what: String) async throws -> Reported {
        try await nextSessionEvent(of: session, what) { event -> Reported? in
            switch event {
            case .snoozed(let snooze): .snoozed(id: snooze.notification.id, seconds: snooze.interval.seconds)
            case .responded(let answer): .responded(id: answer.notification.id, actionID: answer.actionID)
            default: nil
            }
        }
    }

    static func reminder(_ title: String) -> NotificationContent {
        var content = titled(title)
        content.actions = [NotificationAction(id: "done", title: "Done", activation: .background)]
        content.snoozeIntervals = intervals
        return content
    }

    @Test(
        "a press on each snooze button is a snooze of that notification for the button's interval",
        arguments: [0, 1, 2])
    func eachButtonSnoozes(index: Int) async throws {
        let interval = Self.intervals[index]
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let placed = try await session.post(Self.reminder("Call Ann"), category: nil, id: "ann")
                let shown = try #require(await server.server.shownNotifications.first)
                let keys = shown.actions.map(\.key).filter { $0 != "default" }
                #expect(keys == ["done", "snooze:600", "snooze:3600", "snooze:45"])
                try await server.server.invokeAction(id: placed.serverID, key: keys[index + 1])
                let reported = try await Self.nextReport(of: session, "the press on \(keys[index + 1])")
                #expect(reported == .snoozed(id: "ann", seconds: interval.seconds))
            }
            await server.stop()
        }
    }

    @Test("a press on an app's own button stays a response, with its action")
    func ownButtonResponds() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let placed = try await session.post(Self.reminder("Call Bob"), category: nil, id: "bob")
                try await server.server.invokeAction(id: placed.serverID, key: "done")
                let reported = try await Self.nextReport(of: session, "the press on done")
                #expect(reported == .responded(id: "bob", actionID: "done"))
            }
            await server.stop()
        }
    }
}

/// A notification put off is over as it was shown: the close of it that follows the press is reported to nobody, so
/// that its owner, which may show it again under the same id before reading that close, does not end what it shows.
@Suite("A snoozed notification's close at the session")
struct SessionSnoozeCloseTests {
    @Test(
        "after a snooze press, the server's close of the notification is not reported; the next close reported is another's"
    )
    func closeAfterSnoozeIsNotReported() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let placed = try await session.post(SessionSnoozeTests.reminder("Call Ann"), category: nil, id: "ann")
                try await server.server.invokeAction(id: placed.serverID, key: SnoozeInterval.minutes(10).actionKey)
                let reported = try await SessionSnoozeTests.nextReport(of: session, "the snooze")
                #expect(reported == .snoozed(id: "ann", seconds: 600))
                try await withTimeout(.seconds(30), waitingFor: "the server to close the snoozed notification") {
                    while await !server.summaries.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                }
                // Signals are read in order: a close of the snoozed one would be reported before this one's.
                let marker = try await session.post(titled("Marker"), category: nil, id: "marker")
                try await server.server.dismiss(id: marker.serverID)
                let closed = try await nextSessionEvent(of: session, "a close") { event -> String? in
                    if case .closed(let closure) = event { closure.notification.id } else { nil }
                }
                #expect(closed == "marker", "the close of \(closed) was reported after its snooze")
                let followed = await session.shownIDs
                #expect(followed.isEmpty, "the session still follows \(followed)")
            }
            await server.stop()
        }
    }
}
