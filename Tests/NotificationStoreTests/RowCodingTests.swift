import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationStore

/// The binary form the store writes each row's value in: what goes in comes back, values of older and newer versions
/// are read, and damaged bytes are refused without a crash.
@Suite("Binary rows")
struct RowCodingTests {
    enum Shape: Codable, Equatable {
        case point
        case circle(radius: Double)
        case labelled(String, tags: [String])
    }

    struct Everything: Codable, Equatable {
        var flag = true
        var text = "Grüße, ✓ \"quoted\" \u{0}"
        var empty = ""
        var small: Int8 = -128
        var medium: Int16 = 32_767
        var word: Int32 = -1
        var large = Int64.min
        var largest = Int64.max
        var plain = -42
        var bytes: [UInt8] = [0, 1, 127, 128, 255]
        var kept = RowBytes([0, 1, 127, 128, 255])
        var keptEmpty = RowBytes([])
        var keptMissing: RowBytes? = nil
        var unsigned = UInt64.max
        var ratio = -0.0
        var tiny = Double.leastNonzeroMagnitude
        var single: Float = 3.25
        var missing: String? = nil
        var present: String? = "here"
        var holes: [Int?] = [1, nil, 3]
        var nested: [[String]] = [[], ["a", "b"]]
        var byName: [String: [Int]] = ["one": [1], "": []]
        var byNumber: [Int: String] = [2: "two", -7: "minus seven"]
        var shapes: [Shape] = [.point, .circle(radius: 2.5), .labelled("x", tags: ["t"])]
        var date = Date(timeIntervalSince1970: 1_750_000_000.25)
        /// Last, and required: a row cut short anywhere lacks it.
        var last = "end"
    }

    @Test("every kind of value comes back as it went in")
    func roundTrip() throws {
        let value = Everything()
        let bytes = try RowEncoder().encode(value)
        #expect(RowDecoder.isBinaryRow(bytes))
        #expect(try RowDecoder().decode(Everything.self, from: bytes) == value)
    }

    @Test("bytes kept as they are cost their length and a frame in a row, and come back through JSON too")
    func keptBytes() throws {
        struct Holder: Codable, Equatable {
            var message: RowBytes
        }
        let holder = Holder(message: RowBytes((0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        let bytes = try RowEncoder().encode(holder)
        // The version byte, the key, and a frame of one marker and a two-byte length.
        #expect(bytes.count == 1 + 1 + "message".utf8.count + 1 + 2 + 300)
        #expect(try RowDecoder().decode(Holder.self, from: bytes) == holder)
        #expect(try JSONDecoder().decode(Holder.self, from: JSONEncoder().encode(holder)) == holder)
    }

    @Test("the store's own values come back as they went in")
    func storeValues() throws {
        let notification = NotificationStoreTests.notification
        #expect(
            try RowDecoder().decode(
                ScheduledNotification<NotificationContent>.self, from: RowEncoder().encode(notification))
                == notification)
        let category = NotificationStoreTests.category
        #expect(try RowDecoder().decode(NotificationCategory.self, from: RowEncoder().encode(category)) == category)
    }

    @Test(
        "a notification's user info comes back as it went in: strings of any length, numbers, Bools, arrays, objects",
        arguments: [
            JSONValue.string("kitchen1"), .string("\u{1}"), .string(""), .string("a longer text than eight"),
            .number(8), .number(-0.5), .bool(true), .bool(false), .null,
            .array([.string("abcdefgh"), .number(1), .array([]), .object([:])]),
            .object(["room": .string("kitchen1"), "tags": .array([.string("a"), .bool(true)]), "none": .null]),
        ])
    func userInfo(value: JSONValue) throws {
        let content = NotificationContent(title: "Water the plants", userInfo: ["value": value])
        let read = try RowDecoder().decode(NotificationContent.self, from: RowEncoder().encode(content))
        #expect(read.userInfo == ["value": value])
    }

    struct Older: Codable, Equatable {
        var name: String
        var count: Int
    }

    struct Newer: Codable, Equatable {
        var added: [String]
        var count: Int
        var name: String
        var note: String?
    }

    @Test("a value written by a newer version is read without the keys it added; one without a required key is not")
    func versions() throws {
        let newer = Newer(added: ["x"], count: 3, name: "n", note: "kept")
        #expect(try RowDecoder().decode(Older.self, from: RowEncoder().encode(newer)) == Older(name: "n", count: 3))
        // 'added' is required: an older value is not a Newer.
        let older = Older(name: "o", count: 1)
        #expect(throws: DecodingError.self) { try RowDecoder().decode(Newer.self, from: RowEncoder().encode(older)) }
    }

    @Test("a row cut short anywhere, or not a binary row at all, is refused with a decoding error")
    func damaged() throws {
        let bytes = try RowEncoder().encode(Everything())
        for length in 0..<bytes.count {
            #expect(throws: DecodingError.self, "cut to \(length) of \(bytes.count) bytes") {
                try RowDecoder().decode(Everything.self, from: Array(bytes.prefix(length)))
            }
        }
        #expect(throws: DecodingError.self) {
            try RowDecoder().decode(Everything.self, from: Array(#"{"flag":true}"#.utf8))
        }
    }

    @Test("changed bytes are refused or read, and never stop the process")
    func changedBytes() throws {
        let bytes = try RowEncoder().encode(Everything())
        var refused = 0
        for index in 1..<bytes.count {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[index] ^= change
                if (try? RowDecoder().decode(Everything.self, from: damaged)) == nil { refused += 1 }
            }
        }
        // Most changes hit a length, a key or a number's form; some only change a character of a text.
        #expect(refused > bytes.count)
    }
}
