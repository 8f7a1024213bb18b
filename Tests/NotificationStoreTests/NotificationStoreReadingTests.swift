import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationStore

/// An owner that keeps part of each scheduled notification in memory reads the rest back from the store, one row or
/// all of them, through a type that reads only the keys it needs.
@Suite("The store reads scheduled notifications back")
struct NotificationStoreReadingTests {
    typealias Store = NotificationStoreTests.Store

    /// A stored notification's title alone, read from its row.
    struct TitleOnly: Decodable, Equatable {
        var title: String

        private enum Keys: String, CodingKey { case payload }
        private enum ContentKeys: String, CodingKey { case title }

        init(title: String) { self.title = title }

        init(from decoder: any Decoder) throws {
            let payload = try decoder.container(keyedBy: Keys.self)
                .nestedContainer(keyedBy: ContentKeys.self, forKey: .payload)
            title = try payload.decode(String.self, forKey: .title)
        }
    }

    static func notification(_ id: String, title: String) -> ScheduledNotification<NotificationContent> {
        ScheduledNotification(
            id: id, appName: "Mail", trigger: .timeInterval(seconds: 600),
            payload: NotificationContent(title: title, body: "body of \(id)"),
            scheduledAt: Date(timeIntervalSince1970: 1_750_000_000))
    }

    @Test("one row is read whole or in part by its id; an unknown id reads as nil, not as an error")
    func oneRow() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try Store(directory: directory.path)
        defer { store.close() }
        try store.apply([
            .schedule(Self.notification("a", title: "First")), .schedule(Self.notification("b", title: "Second")),
        ])

        #expect(
            try store.readPending(ScheduledNotification<NotificationContent>.self, id: "b")
                == Self.notification("b", title: "Second"))
        #expect(try store.readPending(TitleOnly.self, id: "a") == TitleOnly(title: "First"))
        #expect(try store.readPending(TitleOnly.self, id: "missing") == nil)

        try store.apply(.unschedule(id: "a"))
        #expect(try store.readPending(TitleOnly.self, id: "a") == nil)
    }

    /// A payload with bytes kept ready to use, as the daemon keeps a notification's listing.
    struct Memo: Codable, Sendable {
        var text: String
        var kept: RowBytes
    }

    @Test("a value kept in every payload is read from all rows in one pass; a row without it reads as nil")
    func bytesOfAllRows() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try NotificationStore<Memo, NotificationCategory, NotificationStoreTests.Route>(
            directory: directory.path)
        defer { store.close() }
        try store.apply(
            (0..<300).map { number in
                .schedule(
                    ScheduledNotification(
                        id: "n\(number)", trigger: .timeInterval(seconds: 600),
                        payload: Memo(text: "memo \(number)", kept: RowBytes([UInt8(number % 256), 0xFF])),
                        scheduledAt: Date(timeIntervalSince1970: 1_750_000_000)))
            })
        let database = try #require(store.inner.withLock { $0.database })
        try database.putPending(id: "broken", scheduledAt: 0, body: [RowFormat.version, 0xFF, 0xFF])

        let kept = try store.readPendingBytes(inPayloadAt: ["kept"])
        #expect(kept.count == 301)
        #expect(kept["n42"] == .some(RowBytes([42, 0xFF])))
        #expect(kept["broken"] == .some(nil))
        #expect(try store.readPendingBytes(inPayloadAt: ["no-such-key"])["n1"] == .some(nil))
        #expect(throws: NotificationStoreError.self) { try store.readPending(TitleOnly.self, id: "broken") }
    }

    @Test("after close, reading fails with the store's closed error")
    func closed() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try Store(directory: directory.path)
        store.close()
        let error = #expect(throws: NotificationStoreError.self) { try store.readPending(TitleOnly.self, id: "a") }
        guard case .closed(let path)? = error else {
            Issue.record("not the closed error: \(String(describing: error))")
            return
        }
        #expect(path == directory.path)
    }
}
