import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import Synchronization
import Testing

/// `time-zone` on a wall-clock `fire-date`: `'local'`, or the user's zone by its own name, which the daemon finds by
/// reading the system's settings, and so only for a `Post` that has the key.
@Suite("the user's zone by its name in time-zone")
struct PostZoneNameTests {
    /// A wall-clock `fire-date` with `time-zone` `zone`; without a zone, a notification due in a minute.
    static func post(zone: String?) -> DBusValue {
        var entries: [String: DBusValue] = [PostKeys.title.name: .string("Stand-up")]
        if let zone {
            entries[PostKeys.fireDate.name] = .string("2030-01-01T09:00:00")
            entries[PostKeys.timeZone.name] = .string(zone)
        } else {
            entries[PostKeys.delay.name] = .double(60)
        }
        return .vardict(entries)
    }

    /// Counts how often the zone's name is asked for.
    final class Asked: Sendable {
        private let count = Mutex(0)
        var times: Int { count.withLock { $0 } }

        func name(_ name: String) -> String {
            count.withLock { $0 += 1 }
            return name
        }
    }

    @Test("the user's zone by its name follows the zone, as 'local' does")
    func ownNameFollows() throws {
        let asked = Asked()
        let post = try NotificationPost(
            decoding: Self.post(zone: "Europe/Paris"), currentZoneName: asked.name("Europe/Paris"))
        guard case .date(let fireDate, _)? = post.schedule else { throw TestSupportError("no date: \(post)") }
        #expect(fireDate.followsTimeZone)
        #expect(asked.times == 1)
    }

    @Test("another zone's name is refused, saying to use 'local'")
    func otherNameRefused() {
        #expect {
            _ = try NotificationPost(decoding: Self.post(zone: "Asia/Tokyo"), currentZoneName: "Europe/Paris")
        } throws: { error in
            (error as? DBusFailure)?.message.contains("use 'local'") == true
        }
    }

    @Test("without time-zone, or with 'local', the user's zone is not looked up")
    func notAskedWithoutTheKey() throws {
        let asked = Asked()
        _ = try NotificationPost(decoding: Self.post(zone: nil), currentZoneName: asked.name("Europe/Paris"))
        _ = try NotificationPost(decoding: Self.post(zone: "local"), currentZoneName: asked.name("Europe/Paris"))
        #expect(asked.times == 0)
    }
}
