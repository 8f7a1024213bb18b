import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A server that takes the name from another: each notification is shown on it once, and what the session does to a
/// notification touches only that notification, on the server that shows it.
@Suite("The session when another server takes the name")
struct SessionServerChangeTests {
    @Test("a withdrawal during the re-posting closes nothing on the new server and is not shown again")
    func withdrawalDuringRepostingTouchesOnlyItsOwn() async throws {
        try await withPrivateBus { bus in
            let old = try await TestServer.start(on: bus, allowingReplacement: true)
            try await withSession(on: bus) { session in
                try await session.post(titled("A"), category: nil, id: "a")
                try await session.post(titled("B"), category: nil, id: "b")
                let new = try await TestServer.start(on: bus, answer: .never, replacingOwner: true)
                try await new.nextHeld()
                // The re-posting waits for the new server's answer to the first one; the other is not re-posted yet.
                let held = try #require(await new.server.heldSummaries.first)
                let waiting = held == "A" ? "b" : "a"
                await session.withdraw(id: waiting)
                let closes = await new.closeCalls
                #expect(closes.isEmpty, "the old server's id was closed on the new server: \(closes)")
                await new.server.setNotifyAnswer(.immediately)
                try await session.post(titled("marker"), category: nil, id: waiting)
                let shown = await new.summaries
                #expect(shown.sorted() == [held, "marker"], "the new server shows \(shown)")
                let laterCloses = await new.closeCalls
                #expect(laterCloses.isEmpty, "the new server was asked to close \(laterCloses)")
                await new.stop()
            }
            await old.stop()
        }
    }

    @Test("a replacement after another server took the name goes to that server, not to the previous one still running")
    func replacementAfterTakeoverGoesToTheNewServer() async throws {
        try await withPrivateBus { bus in
            let old = try await TestServer.start(on: bus, allowingReplacement: true)
            try await withSession(on: bus) { session in
                try await session.post(titled("A"), category: nil, id: "a")
                // The previous server keeps running, as dunst does a moment after `dunst --replace` took over.
                let new = try await TestServer.start(on: bus, replacingOwner: true)
                // Posted as soon as the session hears of the new owner: before it has listed what it posts again.
                _ = try await nextSessionEvent(of: session, "the name to change hands") { event -> Bool? in
                    if case .serverChanged(let owner?) = event, owner == new.connection.uniqueName { true } else { nil }
                }
                try await session.post(titled("A again"), category: nil, id: "a")
                let oldNotifies = await old.server.calls.filter { $0.member == "Notify" }.count
                #expect(oldNotifies == 1, "the previous server was sent the replacement, which no screen shows")
                try await withTimeout(.seconds(30), waitingFor: "the new server to show the replacement alone") {
                    while await new.summaries != ["A again"] { try await Task.sleep(for: .milliseconds(5)) }
                }
                await new.stop()
            }
            await old.stop()
        }
    }

    @Test("a late close from the previous server does not end the notification with the same id on the new one")
    func lateCloseOfThePreviousServerIsIgnored() async throws {
        try await withPrivateBus { bus in
            let old = try await TestServer.start(on: bus, allowingReplacement: true)
            try await withSession(on: bus) { session in
                let first = try await session.post(titled("A"), category: nil, id: "a")
                let new = try await TestServer.start(on: bus, replacingOwner: true)
                let reposted = try await nextSessionEvent(of: session, "A to be posted again") { event -> UInt32? in
                    if case .reposted("a", let serverID, _) = event { serverID } else { nil }
                }
                try #require(reposted == first.serverID, "the new server gave another id; the test would prove nothing")
                // The previous server closes its copy late; a round trip on its connection sends the signal first.
                try await old.server.dismiss(id: first.serverID)
                _ = try await old.connection.nameHasOwner("org.freedesktop.Notifications")
                #expect(try await new.server.expire(id: reposted))
                let closure = try await nextSessionEvent(of: session, "A to close") { event -> SessionClosure? in
                    if case .closed(let closure) = event { closure } else { nil }
                }
                #expect(closure.notification.id == "a")
                #expect(closure.reason == .expired, "the previous server's close ended the new server's notification")
                let left = await new.summaries
                #expect(left.isEmpty)
                await new.stop()
            }
            await old.stop()
        }
    }

    @Test("a server that takes the name while a Notify is out shows each notification once")
    func arrivalWhileNotifyIsOut() async throws {
        try await withPrivateBus { bus in
            let old = try await TestServer.start(on: bus, answer: .never, allowingReplacement: true)
            try await withSession(on: bus) { session in
                async let posted = session.post(titled("B"), category: nil, id: "b")
                try await old.nextHeld()
                let new = try await TestServer.start(on: bus, replacingOwner: true)
                // The old server answers after it lost the name: the notification is on it, and goes to the new one.
                await old.server.setNotifyAnswer(.immediately)
                let placed = try await posted
                _ = try await new.next("B to be shown on the new server") { event -> Bool? in
                    if case .notified(let served) = event, served.summary == "B" { true } else { nil }
                }
                try await session.post(titled("marker"), category: nil, id: "m")
                let shown = await new.summaries
                #expect(shown.sorted() == ["B", "marker"], "the new server shows \(shown)")
                _ = placed
                await session.withdraw(id: "b")
                await session.withdraw(id: "m")
                let left = await new.summaries
                #expect(left.isEmpty, "the new server still shows \(left)")
                #expect(await new.closeCalls.count == 2)
                await new.stop()
            }
            await old.stop()
        }
    }
}

extension SessionServerChangeTests {
    @Test("a server that dies and another that starts: what was showing is posted again to it, once each")
    func serverDiesAndAnotherStarts() async throws {
        try await withPrivateBus { bus in
            let old = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                for title in ["A", "B", "C"] { try await session.post(titled(title), category: nil, id: title) }
                await old.connection.close()
                _ = try await nextSessionEvent(of: session, "the server to go") { event -> Bool? in
                    if case .serverChanged(nil) = event { true } else { nil }
                }
                let new = try await TestServer.start(on: bus)
                let reposted = try await nextSessionEvent(of: session, "three to be posted again") {
                    event -> Bool? in
                    if case .reposted = event { true } else { nil }
                }
                _ = reposted
                try await withTimeout(.seconds(60), waitingFor: "the new server to show all three") {
                    while await new.summaries.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
                }
                let shown = await new.summaries
                #expect(shown.sorted() == ["A", "B", "C"], "the new server shows \(shown)")
                await new.stop()
            }
        }
    }
}
