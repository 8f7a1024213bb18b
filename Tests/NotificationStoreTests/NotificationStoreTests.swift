import Foundation
import Glibc
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationStore

@Suite("The durable notification store")
struct NotificationStoreTests {
    /// What a test stores as the route of a delivered notification.
    struct Route: Codable, Sendable, Equatable {
        var sender: String
    }

    typealias Store = NotificationStore<NotificationContent, NotificationCategory, Route>

    /// A fresh directory under the system's temporary directory, removed when the test ends.
    final class TemporaryDirectory {
        let path: String

        init() {
            let base = FileManager.default.temporaryDirectory.path + "/store-tests-\(UUID().uuidString)"
            path = base + "/state/notification-bridge"
        }

        deinit {
            try? FileManager.default.removeItem(atPath: String(path.dropLast("/state/notification-bridge".count)))
        }

        var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    static let notification = ScheduledNotification(
        id: "n1",
        appName: "Mail",
        trigger: .calendar(CalendarMatch(weekdays: .mondayToFriday, hour: 9), repeats: true),
        payload: NotificationContent(title: "Stand-up", body: "in 5 minutes", userInfo: ["room": "B"]),
        scheduledAt: Date(timeIntervalSince1970: 1_750_000_000.5),
        lastFiredAt: Date(timeIntervalSince1970: 1_750_100_000),
        timeZoneIdentifier: "Europe/Berlin"
    )

    static let category = NotificationCategory(id: "mail", actions: [NotificationAction(id: "reply", title: "Reply")])

    static let sample = Store.State(
        pending: ["n1": notification],
        categories: ["mail": category],
        delivered: ["n0": Route(sender: ":1.42")]
    )

    static let changes: [Store.Change] = [
        .schedule(notification), .registerCategory(id: "mail", category), .deliver(id: "n0", Route(sender: ":1.42")),
        .deliver(id: "n9", Route(sender: ":1.9")), .forgetDelivered(id: "n9"), .registerCategory(id: "old", category),
        .removeCategory(id: "old"),
    ]

    /// The size of the file at `path`; 0 when there is none.
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("a first start finds an empty state and leaves one database file, and its count of changes, once closed")
    func firstStart() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        #expect(store.takeOpenedState() == Store.State())
        #expect(try store.readState() == Store.State())
        #expect(store.movedAside.isEmpty)
        store.close()
        #expect(directory.files == ["state.commits", "state.db"])
    }

    @Test("changes survive a restart, and the state read at opening is handed over once")
    func changesRoundTrip() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            for change in Self.changes { try store.apply(change) }
            #expect(try store.readState() == Self.sample)
        }
        let reopened = try Store(directory: directory.path)
        #expect(reopened.movedAside.isEmpty)
        #expect(reopened.takeOpenedState() == Self.sample)
        #expect(reopened.takeOpenedState() == Store.State(), "the store keeps no copy once handed over")
        #expect(try reopened.readState() == Self.sample, "but it is on disk")
        reopened.close()
        #expect(throws: NotificationStoreError.closed(directory: directory.path)) {
            try reopened.apply(.removeCategory(id: "mail"))
        }
    }

    @Test("several changes applied together are recorded all or none")
    func batch() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        store.injectWriteFailure(true)
        #expect(throws: NotificationStoreError.self) { try store.apply(Self.changes) }
        #expect(try store.readState() == Store.State())
        store.injectWriteFailure(false)
        try store.apply(Self.changes)
        store.close()
        #expect(try Store(directory: directory.path).takeOpenedState() == Self.sample)
    }

    @Test("a change rewrites nothing whole: with 2,000 notifications stored, one more writes a few pages")
    func smallWrites() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(
                (0..<2_000).map { index in
                    var notification = Self.notification
                    notification.id = "n\(index)"
                    return .schedule(notification)
                })
            store.close()
        }
        let store = try Store(directory: directory.path)
        let databaseSize = Self.size(of: store.databasePath)
        #expect(databaseSize > 500_000, "\(databaseSize) bytes for 2,000 notifications")
        var changed = Self.notification
        changed.id = "n1000"
        changed.lastFiredAt = Date(timeIntervalSince1970: 1_760_000_000)
        try store.apply(.schedule(changed))
        let logged = Self.size(of: store.databasePath + "-wal")
        #expect(logged > 0 && logged < 10 * 4_096, "\(logged) bytes written to the log for one change")
        #expect(try store.readState().pending["n1000"] == changed)
    }

    @Test("the files are 0600 and the directory 0700, whatever the umask and the directory's old mode")
    func modes() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        let old = umask(0o002)
        defer { umask(old) }
        let store = try Store(directory: directory.path)
        try store.apply(Self.changes)
        #expect(try DurableFile.mode(of: directory.path) == 0o700)
        for name in ["state.db", "state.db-wal", "state.db-shm"] {
            #expect(try DurableFile.mode(of: directory.path + "/" + name) == 0o600, "\(name)")
        }
    }

    @Test("a write error says which file, what failed, that the previous state is unchanged, and what to do")
    func writeErrorMessage() {
        let failure = SQLiteFailure(
            code: .full, message: "database or disk is full", systemErrno: ENOSPC, operation: "saving a change")
        let message = NotificationStoreError.cannotSave(path: "/s/state.db", failure: failure).description
        #expect(message.contains("/s/state.db"))
        #expect(message.contains("database or disk is full"))
        #expect(message.contains("SQLite code 13"))
        #expect(message.contains("previous state is unchanged"))
        #expect(message.contains("free some disk space"))
    }

    /// Bytes that are not a database of the store's, and what the report says of each.
    static let unreadableCases: [(name: String, reason: String)] = [
        ("words", "not an SQLite database"),
        ("another program's database", "another program"),
        ("a newer schema", "schema version 9 is not known"),
        ("a row that cannot be decoded", "the row 'x' of the table categories"),
    ]

    /// Makes the file at `path` one of ``unreadableCases``.
    static func makeUnreadable(_ name: String, at path: String) throws {
        if name == "words" {
            _ = FileManager.default.createFile(atPath: path, contents: Data("{not a database".utf8))
            return
        }
        if name == "another program's database" { try FileManager.default.removeItem(atPath: path) }
        let database = try SQLiteConnection(path: path)
        switch name {
        case "another program's database": try database.execute("CREATE TABLE notes (text TEXT)")
        case "a newer schema": try database.execute("PRAGMA user_version = 9")
        default: try database.execute("INSERT INTO categories (id, body) VALUES ('x', x'7b')")
        }
        database.close()
    }

    @Test("an unreadable database is moved aside, named in the report, and never emptied", arguments: unreadableCases)
    func movedAside(name: String, reason: String) throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", Route(sender: ":1.1")))
            store.close()
        }
        let databasePath = directory.path + "/state.db"
        try Self.makeUnreadable(name, at: databasePath)
        let before = FileManager.default.contents(atPath: databasePath)
        let now = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02T03:04:05Z

        let store = try Store(directory: directory.path, now: now)
        #expect(store.takeOpenedState() == Store.State(), "nothing half-read")
        #expect(store.movedAside.map(\.movedTo) == [databasePath + ".corrupt-20250102T030405Z"])
        guard let report = store.movedAside.first else { return }
        #expect(report.description.contains(report.movedTo), "\(report)")
        #expect(report.reason.contains(reason), "\(report.reason)")
        #expect(FileManager.default.contents(atPath: report.movedTo) == before, "kept byte for byte")
        // A fresh database works, and is readable at the next start.
        try store.apply(.registerCategory(id: "mail", Self.category))
        store.close()
        let reopened = try Store(directory: directory.path, now: now)
        #expect(reopened.movedAside.isEmpty)
        #expect(reopened.takeOpenedState().categories == ["mail": Self.category])
    }

    @Test("a second unreadable database in the same second gets its own name")
    func movedAsideTwice() throws {
        let directory = TemporaryDirectory()
        let now = Date(timeIntervalSince1970: 1_735_787_045)
        for _ in 0..<2 {
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: directory.path + "/state.db", contents: Data("[".utf8))
            try Store(directory: directory.path, now: now).close()
        }
        #expect(
            directory.files == [
                "state.commits", "state.db", "state.db.corrupt-20250102T030405Z",
                "state.db.corrupt-20250102T030405Z-2",
            ])
    }

    @Test("a database that cannot be opened at all is reported and left in place")
    func unopenableFile() throws {
        let directory = TemporaryDirectory()
        // A directory where the file should be: SQLite cannot open it (even for root).
        try FileManager.default.createDirectory(
            atPath: directory.path + "/state.db",
            withIntermediateDirectories: true)
        do {
            _ = try Store(directory: directory.path)
            Issue.record("the store opened a directory as its database")
        } catch {
            guard case .cannotRead(let path, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == directory.path + "/state.db")
            #expect(error.description.contains("regular file owned by you"), "\(error)")
        }
        #expect(directory.files == ["state.db"])
    }

    @Test(
        "the default directory follows XDG_STATE_HOME, and falls back to ~/.local/state",
        arguments: [
            (["XDG_STATE_HOME": "/x/state", "HOME": "/home/ann"], "/x/state/notification-bridge"),
            (["XDG_STATE_HOME": "relative/state", "HOME": "/home/ann"], "/home/ann/.local/state/notification-bridge"),
            (["XDG_STATE_HOME": "", "HOME": "/home/ann/"], "/home/ann/.local/state/notification-bridge"),
            (["HOME": "/home/ann"], "/home/ann/.local/state/notification-bridge"),
        ])
    func defaultDirectory(environment: [String: String], expected: String) {
        #expect(Store.defaultDirectory(environment: environment) == expected)
    }

    @Test("without HOME the default directory comes from the password database")
    func defaultDirectoryWithoutHome() {
        #expect(Store.defaultDirectory(environment: [:]).hasSuffix("/.local/state/notification-bridge"))
    }

    @Test("thousands of rows are read back whole and in order, and a damaged one among them is the one named")
    func manyRows() throws {
        let directory = TemporaryDirectory()
        let count = 5_000
        var stored = Store.State()
        do {
            let store = try Store(directory: directory.path)
            let changes: [Store.Change] = (0..<count).map { index in
                var notification = Self.notification
                notification.id = "n\(index)"
                notification.payload.title = "Message \(index)"
                notification.scheduledAt = Date(timeIntervalSince1970: 1_750_000_000 + Double(index))
                stored.pending[notification.id] = notification
                return .schedule(notification)
            }
            try store.apply(changes)
            store.close()
        }
        #expect(try Store(directory: directory.path).takeOpenedState() == stored)

        // A row far into the table: with more than one processor, read by a thread other than the caller's.
        let database = try SQLiteConnection(path: directory.path + "/state.db")
        try database.execute("UPDATE pending SET body = x'01ff' WHERE id = 'n4321'")
        database.close()
        let store = try Store(directory: directory.path, now: Date(timeIntervalSince1970: 1_735_787_045))
        #expect(store.takeOpenedState() == Store.State())
        let reason = store.movedAside.first?.reason ?? "nothing moved aside"
        #expect(reason.contains("the row 'n4321' of the table pending"), "\(reason)")
    }

    @Test("1,000 posts in a row, each durable before the next, with the state growing to 1,000 notifications")
    func thousandPosts() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for index in 0..<1_000 {
                try store.apply(
                    .schedule(
                        ScheduledNotification(
                            id: "n\(index)", appName: "Mail",
                            trigger: .date(
                                .wallClock(LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)),
                                repeat: .interval(.day)),
                            payload: NotificationContent(
                                title: "Message \(index)", body: String(repeating: "text ", count: 20)),
                            scheduledAt: Date(timeIntervalSince1970: 1_750_000_000), timeZoneIdentifier: "Europe/Berlin"
                        )))
            }
        }
        print(
            "NotificationStore: 1,000 posts in a row took \(elapsed) (\(elapsed / 1_000) per durable change, "
                + "debug build)")
        store.close()
        #expect(try Store(directory: directory.path).takeOpenedState().pending.count == 1_000)
    }
}
