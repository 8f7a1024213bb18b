import Testing

@testable import NotificationStore

/// ``RowFormat/valueRange(at:in:)`` finds a nested value by its keys without decoding the row.
@Suite("a value found in a row by its keys")
struct RowFormatPathTests {
    struct Inner: Codable {
        var kept: RowBytes
        var note: String?
    }

    struct Outer: Codable {
        var name: String
        var inner: Inner?
    }

    static func row(_ value: Outer) throws -> [UInt8] { try RowEncoder().encode(value) }

    @Test("the bytes at a nested key are the kept bytes, whatever the keys around them")
    func nested() throws {
        let bytes = try Self.row(Outer(name: "first", inner: Inner(kept: RowBytes([1, 2, 0xFF]), note: "n")))
        let range = try #require(RowFormat.valueRange(at: ["inner", "kept"], in: bytes))
        #expect(Array(bytes[range]) == [1, 2, 0xFF])
        let name = RowFormat.valueRange(at: ["name"], in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        #expect(name == "first")
    }

    @Test("a missing key, a nil on the way, a JSON row and a damaged frame give nil, never a wrong range")
    func absent() throws {
        let bytes = try Self.row(Outer(name: "x", inner: nil))
        #expect(RowFormat.valueRange(at: ["inner", "kept"], in: bytes) == nil)
        #expect(RowFormat.valueRange(at: ["other"], in: bytes) == nil)
        #expect(RowFormat.valueRange(at: ["name"], in: Array(#"{"name":"x"}"#.utf8)) == nil)
        let whole = try Self.row(Outer(name: "x", inner: Inner(kept: RowBytes([7]), note: nil)))
        for cut in 1..<whole.count {
            if let range = RowFormat.valueRange(at: ["inner", "kept"], in: Array(whole.prefix(cut))) {
                Issue.record("a row cut at \(cut) of \(whole.count) bytes gave \(range)")
            }
        }
    }
}
