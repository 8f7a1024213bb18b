import Foundation
import Glibc
import NotificationModel
import Testing

@testable import NotificationStore

/// The store's file gives back the space of deleted rows, and a file that comes back with fewer changes than were
/// acknowledged is reported, not taken as a fresh start.
@Suite("The store's space and its count of acknowledged changes")
struct StoreSpaceAndLossTests {
    typealias Store = NotificationStoreTests.Store
    typealias TemporaryDirectory = NotificationStoreTests.TemporaryDirectory

    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    static func category(_ index: Int) -> NotificationCategory {
        NotificationCategory(
            id: "c\(index)",
            actions: [NotificationAction(id: "a", title: String(repeating: "Long title \(index) ", count: 40))])
    }

    @Test("thousands of rows written then deleted: the file shrinks back near its empty size")
    func deletedRowsGiveSpaceBack() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let database = store.databasePath
        store.close()
        let empty = Self.size(database)
        let reopened = try Store(directory: directory.path)
        for chunk in stride(from: 0, to: 3_000, by: 100) {
            try reopened.apply((chunk..<chunk + 100).map { .registerCategory(id: "c\($0)", Self.category($0)) })
        }
        reopened.reclaimSpace()
        let full = Self.size(database) + Self.size(database + "-wal")
        try reopened.apply((0..<3_000).map { .removeCategory(id: "c\($0)") })
        #expect(reopened.reclaimSpace(), "space is given back after a large deletion")
        let after = Self.size(database)
        #expect(full > 20 * empty, "\(full) bytes full, \(empty) empty")
        #expect(after <= 2 * empty, "\(after) bytes after the deletion, \(empty) empty")
        #expect(Self.size(database + "-wal") == 0, "the log is cut back")
        #expect(try reopened.readState().categories.isEmpty)
    }

    @Test("a file of an earlier version is turned to incremental vacuum once, its rows kept, and counts from then on")
    func earlierFileIsConverted() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        for index in 0..<3 { try store.apply(.registerCategory(id: "c\(index)", Self.category(index))) }
        let path = store.databasePath
        store.close()
        // As an earlier version left it: no incremental vacuum, no count, no marker beside it.
        let earlier = try SQLiteConnection(path: path)
        try earlier.execute("DROP TABLE counters; PRAGMA auto_vacuum = NONE; VACUUM;")
        #expect(try earlier.integer("PRAGMA auto_vacuum") == 0)
        earlier.close()
        try FileManager.default.removeItem(atPath: directory.path + "/" + CommitMarker.fileName)

        let converted = try Store(directory: directory.path)
        #expect(converted.lostCommits == nil)
        #expect(converted.takeOpenedState().categories.count == 3, "the rows are kept")
        try converted.apply(.removeCategory(id: "c0"))
        converted.close()
        let reopened = try SQLiteConnection(path: path)
        #expect(try reopened.integer("PRAGMA auto_vacuum") == 2)
        #expect(try reopened.integer("SELECT value FROM counters WHERE name = 'commits'") == 1)
        reopened.close()
        #expect(CommitMarker.read(directory.path + "/" + CommitMarker.fileName) == 1)
    }

    @Test("a clean reopen reports nothing; an emptied file after acknowledged changes is reported")
    func emptiedFileIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        for index in 0..<3 { try store.apply(.registerCategory(id: "c\(index)", Self.category(index))) }
        store.close()
        let again = try Store(directory: directory.path)
        #expect(again.lostCommits == nil)
        #expect(again.takeOpenedState().categories.count == 3)
        again.close()

        #expect(truncate(again.databasePath, 0) == 0)
        let emptied = try Store(directory: directory.path)
        let lost = try #require(emptied.lostCommits)
        #expect(lost.acknowledged == 3 && lost.present == 0, "\(lost)")
        #expect(lost.description.contains("was empty (0 bytes)"), "\(lost)")
        #expect(lost.copies.isEmpty)
        emptied.close()
        // Reported once: the count now says what the file holds.
        #expect(try Store(directory: directory.path).lostCommits == nil)
    }
}
