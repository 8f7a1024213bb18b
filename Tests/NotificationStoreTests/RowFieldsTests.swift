import Foundation
import Testing

@testable import NotificationStore

/// A type the store reads by hand (``RowReadable``) reads what `Codable` would: the same value from a good row, the
/// same error, naming the same place, from a damaged one.
@Suite("Rows read by hand")
struct RowFieldsTests {
    /// What is written, through `Codable`.
    struct Written: Codable, Equatable {
        var name: String
        var note: String?
        var at: Double
        var until: Double?
        var inner: Inner?
        var tags: [String]

        struct Inner: Codable, Equatable {
            var label: String
            var weight: Double?
        }
    }

    /// The same keys read by hand; `byHand` says which way it was read.
    struct ReadByHand: RowReadable, Decodable, Equatable {
        var written: Written
        var byHand = false

        /// In the order of `Written`'s keys, as its `init(from:)` reads them, so that the first fault found is the
        /// same.
        init(fields: RowFields) throws {
            let name = try fields.string("name")
            let note = try fields.optionalString("note")
            let at = try fields.double("at")
            let until = try fields.optionalDouble("until")
            let inner = try fields.optionalFields("inner").map {
                Written.Inner(label: try $0.string("label"), weight: try $0.optionalDouble("weight"))
            }
            written = Written(
                name: name, note: note, at: at, until: until, inner: inner,
                tags: try fields.decode([String].self, "tags"))
            byHand = true
        }

        init(from decoder: any Decoder) throws {
            written = try Written(from: decoder)
        }
    }

    static let values = [
        Written(
            name: "Water the plants", note: "balcony", at: 1_750_000_000.5, until: 1_760_000_000,
            inner: .init(label: "garden", weight: -0.25), tags: ["a", "ü"]),
        Written(name: "", note: nil, at: -1, until: nil, inner: nil, tags: []),
        Written(name: "x", note: "", at: 0, until: nil, inner: .init(label: "", weight: nil), tags: [""]),
    ]

    @Test("a good row is read by hand, to the value Codable reads", arguments: values)
    func goodRows(value: Written) throws {
        let bytes = try RowEncoder().encode(value)
        let read = try RowDecoder().decode(ReadByHand.self, from: bytes)
        #expect(read.byHand)
        #expect(read.written == value)
        #expect(try RowDecoder().decode(Written.self, from: bytes) == value)
    }

    @Test("a row cut short, with a byte changed or a key missing gives what Codable gives, error for error")
    func damagedRows() throws {
        let bytes = try RowEncoder().encode(Self.values[0])
        var damaged: [[UInt8]] = (1..<bytes.count).map { Array(bytes[..<$0]) }
        for index in 1..<bytes.count {
            for change: UInt8 in [0, 1, 0x7f, 0xff] where bytes[index] != change {
                var changed = bytes
                changed[index] = change
                damaged.append(changed)
            }
        }
        // Keys that are missing or `nil` where a value is required, and a number of the wrong length.
        struct Loose: Codable {
            var name: String?
            var at: String?
            var tags: [String]?
            var inner: [String: String]?
        }
        damaged += try [
            Loose(name: nil, at: nil, tags: ["t"]), Loose(name: "n", at: "not a number", tags: ["t"]),
            Loose(name: "n", at: nil, tags: nil), Loose(name: "n", at: nil, tags: ["t"], inner: ["weight": "w"]),
        ].map { try RowEncoder().encode($0) }

        var refused = 0
        for row in damaged {
            let byHand = Result { try RowDecoder().decode(ReadByHand.self, from: row).written }
            let byCodable = Result { try RowDecoder().decode(Written.self, from: row) }
            switch (byHand, byCodable) {
            case (.success(let hand), .success(let codable)):
                #expect(hand == codable, "\(row)")
            case (.failure(let hand), .failure(let codable)):
                refused += 1
                #expect(
                    NotificationStore<Written, Written, Written>.describe(hand)
                        == NotificationStore<Written, Written, Written>.describe(codable), "\(row)")
            default:
                Issue.record("read by hand: \(byHand); through Codable: \(byCodable); row \(row)")
            }
        }
        // Every row cut short lacks its last key, `tags`, or ends inside a frame; a changed byte may only change a
        // value.
        #expect(refused >= bytes.count - 1, "\(refused) of \(damaged.count) refused")
    }
}
