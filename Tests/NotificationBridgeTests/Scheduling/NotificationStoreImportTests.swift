import Foundation
import Glibc
import NotificationModel
import Testing

@testable import NotificationBridge

/// An older version kept the state as `state.json` (a snapshot) and `journal.jsonl` (the changes since): the first
/// start of this one imports them into the database, once, and moves them aside.
@Suite("The store imports an older version's state files")
struct NotificationStoreImportTests {
    typealias Store = NotificationStoreTests.Store
    typealias TemporaryDirectory = NotificationStoreTests.TemporaryDirectory

    static let now = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02T03:04:05Z

    /// Writes the files an older version would have left: a snapshot of `state` at `sequence`, and `journal`.
    static func writeOlderFiles(
        in directory: String, state: Store.State?, sequence: UInt64 = 0, journal: [Store.Change] = [],
        cutShort: String = ""
    ) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let state {
            let snapshot = try encoder.encode(StoreSnapshot(sequence: sequence, state: state))
            _ = FileManager.default.createFile(atPath: directory + "/state.json", contents: snapshot)
        }
        var lines = Data()
        for (offset, change) in journal.enumerated() {
            lines += try encoder.encode(JournalRecord(sequence: sequence + UInt64(offset) + 1, change: change))
            lines += Data("\n".utf8)
        }
        lines += Data(cutShort.utf8)
        if !lines.isEmpty {
            _ = FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: lines)
        }
    }

    @Test("a snapshot and its journal are imported once, then moved aside; the next start reads the database")
    func importsOnce() throws {
        let directory = TemporaryDirectory()
        var snapshot = NotificationStoreTests.sample
        snapshot.delivered["gone"] = .init(sender: ":1.7")
        try Self.writeOlderFiles(
            in: directory.path, state: snapshot, sequence: 40,
            journal: [.forgetDelivered(id: "gone"), .deliver(id: "n5", .init(sender: ":1.5"))],
            cutShort: #"{"version":1,"sequence":43,"deliver":{"id":"b","rou"#)
        var expected = NotificationStoreTests.sample
        expected.delivered["n5"] = .init(sender: ":1.5")

        let store = try Store(directory: directory.path, now: Self.now)
        #expect(store.movedAside.isEmpty, "a record cut short by a crash is dropped without complaint")
        #expect(store.takeOpenedState() == expected)
        #expect(
            store.imported.map(\.movedTo) == [
                directory.path + "/state.json.imported-20250102T030405Z",
                directory.path + "/journal.jsonl.imported-20250102T030405Z",
            ])
        #expect(store.imported.first?.description.contains("state.json.imported-20250102T030405Z") == true)
        try store.apply(.unschedule(id: "n1"))
        store.close()

        let reopened = try Store(directory: directory.path, now: Self.now)
        #expect(reopened.imported.isEmpty, "imported once")
        expected.pending = [:]
        #expect(reopened.takeOpenedState() == expected, "later changes are not undone by the import")
        #expect(
            directory.files == [
                "journal.jsonl.imported-20250102T030405Z", "state.commits", "state.db", "state.db-shm", "state.db-wal",
                "state.json.imported-20250102T030405Z",
            ])
    }

    @Test("a journal without a snapshot is imported")
    func journalOnly() throws {
        let directory = TemporaryDirectory()
        try Self.writeOlderFiles(in: directory.path, state: nil, journal: NotificationStoreTests.changes)
        let store = try Store(directory: directory.path, now: Self.now)
        #expect(store.takeOpenedState() == NotificationStoreTests.sample)
        #expect(store.imported.map(\.path) == [directory.path + "/journal.jsonl"])
    }

    @Test("an unreadable snapshot is moved aside with its journal, said so, and nothing of it is imported")
    func unreadableSnapshot() throws {
        let directory = TemporaryDirectory()
        try Self.writeOlderFiles(in: directory.path, state: nil, journal: NotificationStoreTests.changes)
        _ = FileManager.default.createFile(
            atPath: directory.path + "/state.json", contents: Data(#"{"version": 2, "sequence": 0}"#.utf8))
        let store = try Store(directory: directory.path, now: Self.now)
        #expect(store.takeOpenedState() == Store.State())
        #expect(
            store.movedAside.map(\.movedTo) == [
                directory.path + "/state.json.corrupt-20250102T030405Z",
                directory.path + "/journal.jsonl.corrupt-20250102T030405Z",
            ])
        #expect(store.movedAside.first?.reason.contains("version 2 is not known") == true)
        #expect(store.imported.isEmpty)
    }

    @Test("a damaged journal line: the changes before it are imported, the journal is moved aside")
    func damagedJournal() throws {
        let directory = TemporaryDirectory()
        try Self.writeOlderFiles(
            in: directory.path, state: nil,
            journal: [.deliver(id: "a", .init(sender: ":1.1")), .deliver(id: "b", .init(sender: ":1.2"))])
        let journalPath = directory.path + "/journal.jsonl"
        let text = String(decoding: FileManager.default.contents(atPath: journalPath)!, as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "deliver", with: "delivre")
        _ = FileManager.default.createFile(
            atPath: journalPath, contents: Data((lines.joined(separator: "\n") + "\n").utf8))

        let store = try Store(directory: directory.path, now: Self.now)
        #expect(store.takeOpenedState().delivered == ["a": .init(sender: ":1.1")])
        #expect(store.movedAside.map(\.movedTo) == [journalPath + ".corrupt-20250102T030405Z"])
        #expect(store.movedAside.first?.description.contains("the 1 changes before line 2 were imported") == true)
    }

    @Test("an older file that cannot be read at all is reported and left in place")
    func unreadableFile() throws {
        let directory = TemporaryDirectory()
        // A directory where the file should be: opening works, reading fails with EISDIR (even for root).
        try FileManager.default.createDirectory(
            atPath: directory.path + "/state.json", withIntermediateDirectories: true)
        #expect(throws: NotificationStoreError.cannotReadFile(path: directory.path + "/state.json", errno: EISDIR)) {
            try Store(directory: directory.path)
        }
        #expect(directory.files.contains("state.json"))
    }
}
