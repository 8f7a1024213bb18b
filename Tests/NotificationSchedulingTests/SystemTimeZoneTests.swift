import Foundation
import Testing

@testable import NotificationScheduling

/// The system's zone as the C library finds it, read afresh at each call.
@Suite("The system's time zone")
struct SystemTimeZoneTests {
    @Test("TZ names the zone, with or without the leading colon, or as a path under the zone folder")
    func fromTZ() {
        for value in ["Europe/Paris", ":Europe/Paris", "/usr/share/zoneinfo/Europe/Paris"] {
            #expect(SystemTimeZone.read(environment: ["TZ": value]).identifier == "Europe/Paris", "TZ=\(value)")
        }
        let paris = SystemTimeZone.read(environment: ["TZ": "Europe/Paris"])
        // Named zones follow their rules (summer time), which a fixed offset would not.
        #expect(paris.secondsFromGMT(for: Date(timeIntervalSince1970: 1_752_000_000)) == 7200, "July: UTC+2")
        #expect(paris.secondsFromGMT(for: Date(timeIntervalSince1970: 1_736_000_000)) == 3600, "January: UTC+1")
    }

    @Test("an empty TZ is UTC, as for the C library")
    func emptyTZ() {
        #expect(SystemTimeZone.read(environment: ["TZ": ""]) == .utc)
    }

    @Test("a path outside the zone folders names no zone")
    func foreignPath() {
        #expect(SystemTimeZone.zoneName(ofFile: "/usr/share/zoneinfo/Asia/Tokyo") == "Asia/Tokyo")
        #expect(SystemTimeZone.zoneName(ofFile: "/tmp/Asia/Tokyo") == nil)
    }
}
