import Foundation
import NotificationModel
import Testing

@testable import NotificationStore

/// The store's history of ended notifications: bounded by age and count, and added to a file of the version before.
@Suite("The store's history of ended notifications")
struct HistoryStoreTests {
    typealias Store = NotificationStoreTests.Store

    struct Ended: Codable, Sendable, Equatable {
        var title: String
    }

    static func row(_ id: String, endedAt seconds: Double) throws -> EndedRow {
        try EndedRow(id: id, endedAt: Date(timeIntervalSince1970: seconds), Ended(title: id))
    }

    @Test("entries that ended before the cutoff are dropped; the rest are read newest first")
    func boundedByAge() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let day = 86_400.0
        let now = 1_750_000_000.0
        try store.apply([
            .recordEnded(try Self.row("old", endedAt: now - 8 * day)),
            .recordEnded(try Self.row("week", endedAt: now - 6 * day)),
            .recordEnded(try Self.row("today", endedAt: now - 60)),
        ])
        #expect(try store.readHistory(Ended.self).map(\.title) == ["today", "week", "old"])
        try store.apply(.pruneEnded(endedBefore: Date(timeIntervalSince1970: now - 7 * day), keeping: 500))
        #expect(try store.readHistory(Ended.self).map(\.title) == ["today", "week"])
        #expect(try store.readHistoryEntry(Ended.self, id: "old") == nil)
        #expect(try store.readHistoryEntry(Ended.self, id: "week") == Ended(title: "week"))
        store.close()
    }

    @Test("beyond the count, the oldest entries are dropped; an entry written again replaces its id's")
    func boundedByCount() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try Store(directory: directory.path)
        for index in 0..<6 {
            try store.apply([
                .recordEnded(try Self.row("n\(index)", endedAt: 1_750_000_000 + Double(index))),
                .pruneEnded(endedBefore: Date(timeIntervalSince1970: 0), keeping: 4),
            ])
        }
        #expect(try store.readHistory(Ended.self).map(\.title) == ["n5", "n4", "n3", "n2"])
        try store.apply(.recordEnded(try Self.row("n2", endedAt: 1_750_000_100)))
        #expect(try store.readHistory(Ended.self).map(\.title) == ["n2", "n5", "n4", "n3"])
        store.close()
    }

    @Test("entries and prunings written together in one transaction keep what they would one by one")
    func batchedPrunings() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let store = try Store(directory: directory.path)
        var changes: [Store.Change] = []
        for index in 0..<6 {
            changes.append(.recordEnded(try Self.row("n\(index)", endedAt: 1_750_000_000 + Double(index))))
            changes.append(
                .pruneEnded(endedBefore: Date(timeIntervalSince1970: 1_750_000_000 + Double(index) - 4), keeping: 3))
        }
        try store.apply(changes)
        #expect(try store.readHistory(Ended.self).map(\.title) == ["n5", "n4", "n3"])
        store.close()
    }

    @Test("a file of schema version 2 keeps its rows and gains the history when opened")
    func upgradesVersionTwo() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", NotificationStoreTests.Route(sender: ":1.1")))
            store.close()
        }
        // As version 2 made it: no history table.
        let database = try SQLiteConnection(path: directory.path + "/state.db")
        try database.execute("DROP TABLE history; PRAGMA user_version = 2;")
        database.close()

        let store = try Store(directory: directory.path)
        #expect(store.movedAside.isEmpty)
        #expect(store.takeOpenedState().delivered == ["a": NotificationStoreTests.Route(sender: ":1.1")])
        try store.apply(.recordEnded(try Self.row("n1", endedAt: 1_750_000_000)))
        #expect(try store.readHistory(Ended.self) == [Ended(title: "n1")])
        store.close()
        let reopened = try SQLiteConnection(path: directory.path + "/state.db")
        #expect(try reopened.integer("PRAGMA user_version") == StoreDatabase.schemaVersion)
        reopened.close()
    }
}
