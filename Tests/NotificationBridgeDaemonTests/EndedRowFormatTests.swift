import Foundation
import NotificationBridgeAPI
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon
@testable import NotificationStore

/// The history's rows outlive the daemon as the other rows do: `RowFixtures/history-version-2.rows` holds the bytes
/// the row format's version 2 wrote for ``ended``, the first version that kept a history; every later version must
/// read them back whole, so that a user who upgrades can still answer what they missed.
@Suite("history rows written by the row format's version 2 read back whole")
struct EndedRowFormatTests {
    /// A history entry with every part set to something other than its default.
    static let ended = EndedPost(
        id: "n7", appName: "Garden", poster: ":1.9", content: StoredRowFixtures.content,
        actions: StoredRowFixtures.category.actions, route: StoredRowFixtures.route, ending: .serverGone,
        responseAction: "done", endedAt: Date(timeIntervalSince1970: 1_750_000_200.75))

    static func fixture() throws -> [UInt8] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("RowFixtures/history-version-2.rows")
        let line = try #require(
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").first { !$0.hasPrefix("#") })
        let parts = line.split(separator: " ")
        try #require(parts.count == 2 && parts[0] == "history", "a fixture line is a kind and its bytes: \(line)")
        let hex = Array(parts[1].utf8)
        return try stride(from: 0, to: hex.count - 1, by: 2).map { index in
            try #require(UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16))
        }
    }

    @Test("a history row gives back the notification whole: content, offered actions, route, ending and time")
    func readsBack() throws {
        let bytes = try Self.fixture()
        #expect(bytes.first == 2)
        let read = try RowDecoder().decode(EndedPost.self, from: bytes)
        let expected = Self.ended
        #expect(read.id == expected.id && read.appName == expected.appName && read.poster == expected.poster)
        #expect(read.content == expected.content)
        #expect(read.actions == expected.actions)
        #expect(read.route == expected.route)
        #expect(read.ending == .serverGone && read.responseAction == "done")
        #expect(read.endedAt == expected.endedAt)
    }
}
