import Foundation
import Glibc
import NotificationModel
import Testing

@testable import NotificationBridge

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

    /// The JSON value of a file.
    static func json(at path: String) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self))
    }

    @Test("a first start finds an empty state and creates no snapshot")
    func firstStart() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        #expect(store.state == Store.State())
        #expect(store.movedAside.isEmpty)
        #expect(directory.files == ["journal.jsonl"])
    }

    @Test("changes survive a restart, and the journal is folded into a versioned snapshot when the store opens")
    func changesRoundTrip() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            for change in Self.changes { try store.apply(change) }
            #expect(store.state == Self.sample)
            #expect(directory.files == ["journal.jsonl"], "changes go to the journal only")
        }
        let reopened = try Store(directory: directory.path)
        #expect(reopened.state == Self.sample)
        #expect(reopened.movedAside.isEmpty)
        #expect(directory.files == ["journal.jsonl", "state.json"])
        #expect(FileManager.default.contents(atPath: reopened.journalPath)?.isEmpty == true)

        let snapshot = try Self.json(at: reopened.snapshotPath)
        guard case .object(let members) = snapshot else {
            Issue.record("the snapshot should be an object, got \(snapshot)")
            return
        }
        #expect(members["version"] == 1)
        #expect(members["sequence"] == JSONValue.number(Double(Self.changes.count)))
        #expect(Set(members.keys) == ["version", "sequence", "pending", "categories", "delivered"])
        #expect(try Store(directory: directory.path).state == Self.sample, "and read again")
    }

    @Test("save replaces the whole state atomically, and later changes follow it")
    func saveThenApply() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        try store.apply(.deliver(id: "gone", Route(sender: ":1.1")))
        try store.save(Self.sample)
        try store.apply(.unschedule(id: "n1"))
        var expected = Self.sample
        expected.pending = [:]
        #expect(store.state == expected)
        #expect(try Store(directory: directory.path).state == expected)
        #expect(directory.files == ["journal.jsonl", "state.json"], "no temporary file is left behind")
    }

    @Test("several changes applied together are recorded all or none")
    func batch() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        store.injectWriteFailure(afterBytes: 50)
        #expect(throws: NotificationStoreError.self) { try store.apply(Self.changes) }
        #expect(store.state == Store.State())
        store.injectWriteFailure(afterBytes: nil)
        try store.apply(Self.changes)
        #expect(try Store(directory: directory.path).state == Self.sample)
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
        try store.save(Self.sample)
        #expect(try DurableFile.mode(of: directory.path) == 0o700)
        #expect(try DurableFile.mode(of: store.snapshotPath) == 0o600)
        #expect(try DurableFile.mode(of: store.journalPath) == 0o600)
    }

    @Test("a snapshot write that fails midway leaves the old file intact and no temporary file")
    func atomicReplace() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        try store.save(Self.sample)
        let before = FileManager.default.contents(atPath: store.snapshotPath)

        var changed = Self.sample
        changed.delivered["n2"] = Route(sender: ":1.43")
        store.injectWriteFailure(afterBytes: 20)
        #expect(throws: NotificationStoreError.cannotWrite(path: store.snapshotPath, errno: EIO)) {
            try store.save(changed)
        }
        #expect(FileManager.default.contents(atPath: store.snapshotPath) == before)
        #expect(store.state == Self.sample)
        #expect(directory.files == ["journal.jsonl", "state.json"])
        #expect(try Store(directory: directory.path).state == Self.sample)

        store.injectWriteFailure(afterBytes: nil)
        try store.save(changed)
        #expect(try Store(directory: directory.path).state == changed)
    }

    @Test("a journal append that fails midway is cut off: the next change and a restart see a clean journal")
    func failedAppend() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        try store.apply(.deliver(id: "a", Route(sender: ":1.1")))
        store.injectWriteFailure(afterBytes: 10)
        #expect(throws: NotificationStoreError.cannotWrite(path: store.journalPath, errno: EIO)) {
            try store.apply(.deliver(id: "b", Route(sender: ":1.2")))
        }
        store.injectWriteFailure(afterBytes: nil)
        try store.apply(.deliver(id: "c", Route(sender: ":1.3")))
        let reopened = try Store(directory: directory.path)
        #expect(reopened.movedAside.isEmpty)
        #expect(reopened.state.delivered == ["a": Route(sender: ":1.1"), "c": Route(sender: ":1.3")])
    }

    @Test("a record cut short by a crash is dropped without complaint")
    func tornRecord() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", Route(sender: ":1.1")))
        }
        let handle = FileHandle(forWritingAtPath: directory.path + "/journal.jsonl")!
        handle.seekToEndOfFile()
        handle.write(Data(#"{"version":1,"sequence":2,"deliver":{"id":"b","rou"#.utf8))
        handle.closeFile()
        let reopened = try Store(directory: directory.path)
        #expect(reopened.movedAside.isEmpty)
        #expect(reopened.state.delivered == ["a": Route(sender: ":1.1")])
        try reopened.apply(.deliver(id: "b", Route(sender: ":1.2")))
        #expect(try Store(directory: directory.path).state.delivered.count == 2)
    }

    @Test("a write error says which file and that the previous state is unchanged")
    func writeErrorMessage() {
        let message = NotificationStoreError.cannotWrite(path: "/s/state.json", errno: ENOSPC).description
        #expect(message.contains("/s/state.json"))
        #expect(message.contains("No space left on device"))
        #expect(message.contains("previous state is unchanged"))
    }

    static let unreadableCases: [(contents: String, reason: String)] = [
        ("{not json", "not valid JSON"),
        (#"{"version": 2, "sequence": 0, "pending": {}}"#, "version 2 is not known"),
        (#"{"pending": {}}"#, "missing key \"version\""),
        (
            #"{"version": 1, "sequence": 0, "pending": {"x": {"id": "x"}}, "categories": {}, "delivered": {}}"#,
            "pending.x"
        ),
        ("", "not valid JSON"),
    ]

    @Test("an unreadable snapshot is moved aside, named in the report, and never emptied", arguments: unreadableCases)
    func movedAside(contents: String, reason: String) throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", Route(sender: ":1.1")))
        }
        let snapshotPath = directory.path + "/state.json"
        _ = FileManager.default.createFile(atPath: snapshotPath, contents: Data(contents.utf8))
        let now = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02T03:04:05Z

        let store = try Store(directory: directory.path, now: now)
        #expect(store.state == Store.State(), "nothing half-read")
        let reports = store.movedAside
        #expect(
            reports.map(\.movedTo) == [
                snapshotPath + ".corrupt-20250102T030405Z",
                directory.path + "/journal.jsonl.corrupt-20250102T030405Z",
            ], "the journal's changes belong to it")
        guard let report = reports.first else { return }
        #expect(report.description.contains(report.movedTo), "\(report)")
        #expect(report.reason.contains(reason), "\(report.reason)")
        #expect(FileManager.default.contents(atPath: report.movedTo) == Data(contents.utf8), "kept byte for byte")
        #expect(try Store(directory: directory.path, now: now).movedAside.isEmpty, "a fresh, readable state remains")
    }

    @Test("a damaged journal line keeps the changes before it and moves the journal aside")
    func damagedJournal() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", Route(sender: ":1.1")))
            try store.apply(.deliver(id: "b", Route(sender: ":1.2")))
        }
        let journalPath = directory.path + "/journal.jsonl"
        var lines = String(decoding: FileManager.default.contents(atPath: journalPath)!, as: UTF8.self)
            .split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "deliver", with: "delivre")
        _ = FileManager.default.createFile(
            atPath: journalPath, contents: Data((lines.joined(separator: "\n") + "\n").utf8))

        let store = try Store(directory: directory.path, now: Date(timeIntervalSince1970: 1_735_787_045))
        #expect(store.state.delivered == ["a": Route(sender: ":1.1")])
        #expect(store.movedAside.count == 1)
        let report = store.movedAside[0]
        #expect(report.movedTo == journalPath + ".corrupt-20250102T030405Z")
        #expect(report.reason.hasPrefix("line 2"), "\(report.reason)")
        #expect(report.description.contains("the 1 changes before line 2 were applied"), "\(report)")
    }

    @Test("a second unreadable file in the same second gets its own name")
    func movedAsideTwice() throws {
        let directory = TemporaryDirectory()
        let now = Date(timeIntervalSince1970: 1_735_787_045)
        _ = try Store(directory: directory.path)
        for _ in 0..<2 {
            _ = FileManager.default.createFile(atPath: directory.path + "/state.json", contents: Data("[".utf8))
            _ = try Store(directory: directory.path, now: now)
        }
        #expect(
            directory.files == [
                "journal.jsonl", "state.json", "state.json.corrupt-20250102T030405Z",
                "state.json.corrupt-20250102T030405Z-2",
            ])
    }

    @Test("a state file that cannot be read at all is reported and left in place")
    func unreadableFile() throws {
        let directory = TemporaryDirectory()
        // A directory where the file should be: opening works, reading fails with EISDIR (even for root).
        try FileManager.default.createDirectory(
            atPath: directory.path + "/state.json",
            withIntermediateDirectories: true)
        #expect(throws: NotificationStoreError.cannotRead(path: directory.path + "/state.json", errno: EISDIR)) {
            try Store(directory: directory.path)
        }
        #expect(directory.files == ["state.json"])
    }

    @Test("temporary files left by an interrupted snapshot write are removed when the store opens")
    func leftovers() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        try store.save(Self.sample)
        _ = FileManager.default.createFile(atPath: store.snapshotPath + ".tmp-123-456", contents: Data("{\"vers".utf8))
        #expect(try Store(directory: directory.path).state == Self.sample)
        #expect(directory.files == ["journal.jsonl", "state.json"])
    }

    @Test("the journal is compacted into the snapshot once it outgrows it")
    func compaction() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path, now: Date(), minimumCompactionBytes: 4096)
        for index in 0..<200 { try store.apply(.deliver(id: "n\(index)", Route(sender: ":1.\(index)"))) }
        let journalSize = FileManager.default.contents(atPath: store.journalPath)?.count ?? 0
        let snapshotSize = FileManager.default.contents(atPath: store.snapshotPath)?.count ?? 0
        #expect(snapshotSize > 0, "a snapshot was written")
        #expect(journalSize <= max(4096, snapshotSize) + 100, "the journal was emptied as it grew")
        #expect(try Store(directory: directory.path).state.delivered.count == 200)
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
        #expect(try Store(directory: directory.path).state.pending.count == 1_000)
    }
}
