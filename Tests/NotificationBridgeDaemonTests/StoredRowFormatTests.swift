import DBusCore
import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationBridgeDaemon
@testable import NotificationStore

/// The daemon's state database outlives the daemon: rows written by one release are read by the next. The rows in
/// `RowFixtures/version-1.rows` are the bytes the row format's first version wrote for the values of
/// ``StoredRowFixtures``; a change to the row format or to a stored field's name must still read them back whole, so a
/// user who upgrades keeps their scheduled notifications, categories and the routes of what is showing.
@Suite("rows written by the row format's first version read back whole")
struct StoredRowFormatTests {
    /// The fixture's rows by kind.
    static func rows() throws -> [String: [UInt8]] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("RowFixtures/version-1.rows")
        var rows: [String: [UInt8]] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            try #require(parts.count == 2, "a fixture line is a kind and its bytes: \(line)")
            let hex = Array(parts[1].utf8)
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: hex.count - 1, by: 2) {
                bytes.append(try #require(UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16)))
            }
            rows[String(parts[0])] = bytes
        }
        return rows
    }

    @Test("every row starts with the format version, and this version reads it")
    func version() throws {
        let rows = try Self.rows()
        #expect(rows.count == 3)
        for (kind, bytes) in rows {
            #expect(bytes.first == 1, "\(kind)")
            #expect(RowDecoder.isBinaryRow(bytes), "\(kind)")
        }
    }

    @Test("a scheduled notification's row gives back its post whole: content, route, poster, hints and trigger")
    func scheduled() throws {
        let bytes = try #require(try Self.rows()["pending"])
        let read = try RowDecoder().decode(ScheduledNotification<ScheduledPost>.self, from: bytes)
        let expected = StoredRowFixtures.scheduled
        #expect(read.id == expected.id && read.appName == expected.appName)
        #expect(read.trigger == StoredRowFixtures.trigger)
        #expect(read.scheduledAt == expected.scheduledAt && read.lastFiredAt == expected.lastFiredAt)
        #expect(read.timeZoneIdentifier == "Europe/Berlin")
        #expect(read.payload.content == StoredRowFixtures.content)
        #expect(read.payload.route == StoredRowFixtures.route)
        #expect(read.payload.poster == ":1.7")
        #expect(read.payload.hints == ["x-garden": .string("yes")])
        #expect(read.payload.wireListing?.bytes.isEmpty == false, "the row keeps the keys a listing copies")
    }

    @Test("a scheduled notification's row reads as the summary the daemon keeps in memory, and its post alone")
    func summary() throws {
        let bytes = try #require(try Self.rows()["pending"])
        let read = try RowDecoder().decode(ScheduledNotification<PendingPost>.self, from: bytes)
        #expect(read.payload.poster == ":1.7" && read.payload.route == StoredRowFixtures.route)
        #expect(read.payload.selection.value.categoryID == "org.example.reminder")
        #expect(read.payload.selection.value.threadID == "balcony")
        let payload = try RowDecoder().decode(PayloadOfRow<ScheduledPost>.self, from: bytes).payload
        #expect(payload.content == StoredRowFixtures.content)
    }

    @Test("the route of a notification showing reads back with the server instance that showed it")
    func delivered() throws {
        let bytes = try #require(try Self.rows()["delivered"])
        let read = try RowDecoder().decode(DeliveredPost.self, from: bytes)
        let expected = StoredRowFixtures.delivered
        #expect(read.serverID == 42 && read.server == expected.server)
        #expect(read.content == expected.content && read.route == expected.route)
        #expect(read.poster == ":1.8" && read.reportsDismissal && read.shownAt == expected.shownAt)
    }

    @Test("a category reads back with its actions, minimal actions and dismissal report")
    func category() throws {
        let bytes = try #require(try Self.rows()["categories"])
        #expect(try RowDecoder().decode(NotificationCategory.self, from: bytes) == StoredRowFixtures.category)
    }

    @Test("this version writes what it reads: the fixtures' values encode to rows that decode to the same values")
    func roundTrip() throws {
        let encoder = RowEncoder()
        let category = try encoder.encode(StoredRowFixtures.category)
        #expect(try RowDecoder().decode(NotificationCategory.self, from: category) == StoredRowFixtures.category)
        let delivered = try RowDecoder().decode(DeliveredPost.self, from: encoder.encode(StoredRowFixtures.delivered))
        #expect(delivered.content == StoredRowFixtures.delivered.content)
    }
}
