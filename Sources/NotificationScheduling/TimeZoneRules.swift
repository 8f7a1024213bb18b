internal import CGIO
import FoundationEssentials

/// A time zone's rules — its offsets from UTC over time, summer time included — read from the system's zoneinfo
/// through GLib's `GTimeZone`, which also follows a zone file's closing rule (its POSIX `TZ` string) past the last
/// transition listed.
///
/// The bridge's own stand-in for `TimeZone`: with FoundationEssentials alone, `TimeZone` knows only fixed offsets, and
/// its named zones would bring ICU and its 30-odd MB of data into every binary. Two values are equal when they name
/// the same zone.
package struct TimeZoneRules: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name in the tz database (`Europe/Paris`), or `UTC`.
    package let identifier: String
    private let zone: Zone

    /// Coordinated Universal Time.
    package static let utc = TimeZoneRules(identifier: "UTC")!

    /// The zone named `identifier` in the tz database (`Europe/Paris`, `UTC`); `nil` when the system has no such
    /// zone.
    package init?(identifier: String) {
        // GLib also reads offsets ("+02:00") and POSIX TZ strings ("CET-1CEST") as zones; only names are zones here.
        guard !identifier.isEmpty, !identifier.hasPrefix("+"), !identifier.hasPrefix("-"),
            let pointer = g_time_zone_new_identifier(identifier)
        else { return nil }
        zone = Zone(pointer)
        self.identifier = identifier
    }

    /// How far the zone is ahead of UTC at `date`, in seconds.
    package func secondsFromGMT(for date: Date) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let interval = g_time_zone_find_interval(zone.pointer, G_TIME_TYPE_UNIVERSAL, seconds)
        return Int(g_time_zone_get_offset(zone.pointer, interval))
    }

    package var description: String { identifier }

    package static func == (left: TimeZoneRules, right: TimeZoneRules) -> Bool {
        left.identifier == right.identifier
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// Owns one reference to a `GTimeZone`, which never changes once made and may be used from any thread.
    private final class Zone: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) {
            self.pointer = pointer
        }

        deinit {
            g_time_zone_unref(pointer)
        }
    }
}
