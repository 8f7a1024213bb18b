import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

/// Interruption levels through the daemon: what gets through the bridge's do-not-disturb, what a critical
/// notification keeps, and what listings report.
@Suite("Interruption levels through the daemon")
struct InterruptionLevelTests {
    @Test("do-not-disturb on: passive and active wait, time-sensitive only once allowed for the app, critical comes")
    func doNotDisturb() async throws {
        try await DaemonFixture.with { fixture in
            let quiet = try await fixture.gdbus(BridgeMethod.setSettings.name, "", "{'do-not-disturb': <true>}")
            #expect(quiet.status == 0, "\(quiet.standardError)")
            for level in [NotificationInterruptionLevel.passive, .active, .timeSensitive] {
                let held = await outcome { try await post(fixture, "Mail", "Held \(level.name)", level: level) }
                let failure = try #require(held.failure as? DBusFailure, "\(level) was shown")
                #expect(failure.name == BridgeError.notAllowed.rawValue, "\(level): \(failure)")
                #expect(failure.message.contains("do-not-disturb is on"), "\(failure.message)")
                let says = failure.message.contains("notification-bridge settings Mail --time-sensitive on")
                #expect(says == (level == .timeSensitive), "\(level.name): \(failure.message)")
            }

            let allow = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'time-sensitive': <true>}")
            #expect(allow.status == 0, "\(allow.standardError)")
            let read = try await fixture.gdbus(BridgeMethod.getSettings.name, "Mail")
            #expect(read.output.contains("'time-sensitive': <true>"), "\(read.output)")
            // The server's events are in order: what it gets next is what passed.
            _ = try await post(fixture, "Mail", "Courier at the door", level: .timeSensitive)
            #expect(try await fixture.nextNotification().summary == "Courier at the door")
            let other = await outcome { try await post(fixture, "Chat", "Not allowed", level: .timeSensitive) }
            #expect((other.failure as? DBusFailure)?.name == BridgeError.notAllowed.rawValue, "another app's waits")

            _ = try await post(fixture, "Chat", "Smoke alarm", level: .critical)
            let critical = try await fixture.nextNotification()
            #expect(critical.summary == "Smoke alarm")
            #expect(critical.hints["urgency"]?.unwrappedVariant == .byte(2))
            #expect(critical.expireTimeout == 0, "stays until the user acts")
        }
    }

    @Test("a critical notification keeps its sound when the app's sounds are off; a passive one is silent")
    func criticalSound() async throws {
        try await DaemonFixture.with { fixture in
            let off = try await fixture.gdbus(BridgeMethod.setSettings.name, "Alarm", "{'sound': <false>}")
            #expect(off.status == 0, "\(off.standardError)")
            let sound = [PostKeys.sound.name: DBusValue.string("alarm-clock-elapsed")]
            _ = try await post(fixture, "Alarm", "Wake up", level: .critical, sound)
            let critical = try await fixture.nextNotification()
            #expect(critical.soundName == "alarm-clock-elapsed")
            #expect(critical.hints["suppress-sound"] == nil)
            _ = try await post(fixture, "Alarm", "Snoozed", level: .active, sound)
            #expect(try await fixture.nextNotification().hints["suppress-sound"]?.unwrappedVariant == .boolean(true))

            _ = try await post(fixture, "Photos", "Album ready", level: .passive, sound)
            let passive = try await fixture.nextNotification()
            #expect(passive.soundName == nil)
            #expect(passive.hints["suppress-sound"]?.unwrappedVariant == .boolean(true))
            #expect(passive.expireTimeout == 4000, "shown briefly where the server keeps no quiet list")
        }
    }

    @Test("listings report the level; a critical one without an urgency is listed as urgency critical")
    func listed() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await post(fixture, "Oven", "Preheated", level: .timeSensitive)
            _ = try await fixture.nextNotification()
            let alarm = try await post(fixture, "Oven", "Fire", level: .critical)
            _ = try await fixture.nextNotification()
            let listed = try await BridgeProxy(connection: fixture.client).listDelivered(NotificationFilter())
            let levels = Dictionary(uniqueKeysWithValues: listed.map { ($0.id, $0.interruptionLevel) })
            #expect(levels[id] == .timeSensitive)
            #expect(levels[alarm] == .critical)
            #expect(listed.first { $0.id == alarm }?.post.content.urgency == .critical)
            let text = try await fixture.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Oven'>}")
            #expect(text.output.contains("'interruption-level': <'time-sensitive'>"), "\(text.output)")
        }
    }

    @Test("an unknown level and a critical one with urgency low are refused, saying what to use")
    func invalid() async throws {
        try await DaemonFixture.with { fixture in
            let unknown = await outcome {
                try await fixture.post([
                    PostKeys.title.name: .string("Hi"), PostKeys.interruptionLevel.name: .string("urgent"),
                ])
            }
            let failure = try #require(unknown.failure as? DBusFailure)
            #expect(failure.name == BridgeError.invalidArgument.rawValue)
            #expect(failure.message.contains("'time-sensitive'"), "\(failure.message)")
            let low = await outcome {
                try await post(fixture, "Mail", "Hi", level: .critical, [PostKeys.urgency.name: .string("low")])
            }
            let lowFailure = try #require(low.failure as? DBusFailure)
            #expect(lowFailure.message.contains("make it critical"), "\(lowFailure.message)")
        }
    }
}

/// Posts a notification of `app` at `level` through the daemon and returns its id.
private func post(
    _ fixture: DaemonFixture, _ app: String, _ title: String, level: NotificationInterruptionLevel,
    _ extra: [String: DBusValue] = [:]
) async throws -> String {
    try await fixture.post(
        [
            PostKeys.appName.name: .string(app), PostKeys.title.name: .string(title),
            PostKeys.interruptionLevel.name: .string(level.name),
        ].merging(extra) { $1 })
}
