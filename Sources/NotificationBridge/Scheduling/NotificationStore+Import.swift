import FoundationEssentials
import Glibc

/// Importing the state of an older version: `state.json` (a snapshot) and `journal.jsonl` (the changes since it),
/// read as that version read them, written into the database in one transaction, then moved aside.
extension NotificationStore {
    /// What the older version's files held.
    private struct Legacy {
        var state = State()
        var sequence: UInt64 = 0
        var movedAside: [CorruptStateFile] = []
    }

    /// Imports the files of an older version into `opened`, if there are any, and moves them to
    /// `<name>.imported-<UTC time>`. Run again after a crash before the move: the rows are written again, the same.
    ///
    /// A file that cannot be read is moved aside as `<name>.corrupt-<UTC time>` (and reported), as that version did.
    static func importOlderVersion(
        snapshotPath: String, journalPath: String, now: Date, into opened: inout Opened
    ) throws(NotificationStoreError) {
        let directory = snapshotPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        // Temporary files of a snapshot write that the older version left when it was interrupted.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(snapshotName + ".tmp-") {
            unlink(directory + "/" + name)
        }
        let snapshot = try read(snapshotPath)
        let journal = try read(journalPath)
        guard snapshot != nil || journal != nil else { return }
        let legacy = try readLegacy(
            snapshot: snapshot, journal: journal ?? [], snapshotPath: snapshotPath, journalPath: journalPath, now: now)
        opened.movedAside += legacy.movedAside

        var changes: [Change] = legacy.state.pending.values.sorted { $0.scheduledAt < $1.scheduledAt }
            .map { .schedule($0) }
        changes += legacy.state.categories.sorted { $0.key < $1.key }.map { .registerCategory(id: $0.key, $0.value) }
        changes += legacy.state.delivered.sorted { $0.key < $1.key }.map { .deliver(id: $0.key, $0.value) }
        let rows = try StoreRow.encode(changes)
        do throws(SQLiteFailure) {
            try opened.database.connection.transaction { () throws(SQLiteFailure) in
                for row in rows { try row.write(to: opened.database) }
            }
        } catch {
            throw .cannotSave(path: opened.database.connection.path, failure: error)
        }
        for change in changes { opened.state.apply(change) }

        let stamp = compactUTCStamp(now)
        for path in [snapshotPath, journalPath] where DurableFile.exists(path) {
            let destination = "\(path).imported-\(stamp)"
            do throws(DurableFile.Failure) {
                try DurableFile.move(path, to: destination)
            } catch {
                throw .cannotMoveAside(
                    path: path, destination: destination, errno: error.code,
                    reason: "its state was imported into \(opened.database.connection.path)")
            }
            opened.imported.append(ImportedStateFile(path: path, movedTo: destination))
        }
    }

    /// The state the older version's files hold, moving aside what cannot be read.
    private static func readLegacy(
        snapshot: [UInt8]?, journal: [UInt8], snapshotPath: String, journalPath: String, now: Date
    ) throws(NotificationStoreError) -> Legacy {
        var legacy = Legacy()
        let decoder = JSONDecoder()
        if let snapshot {
            do {
                let decoded = try decoder.decode(StoreSnapshot<Payload, Category, Route>.self, from: Data(snapshot))
                (legacy.state, legacy.sequence) = (decoded.state, decoded.sequence)
            } catch {
                legacy.movedAside.append(
                    try moveAside(
                        snapshotPath, reason: describe(error),
                        consequence: "its scheduled notifications, categories and delivered notifications were not "
                            + "imported",
                        now: now))
            }
        }
        guard !journal.isEmpty else { return legacy }
        if !legacy.movedAside.isEmpty {
            legacy.movedAside.append(
                try moveAside(
                    journalPath, reason: "it holds changes to \(snapshotPath), which could not be read",
                    consequence: "its changes were not applied", now: now))
        } else if let problem = replay(journal, onto: &legacy, decoder: decoder) {
            legacy.movedAside.append(
                try moveAside(journalPath, reason: problem.reason, consequence: problem.consequence, now: now))
        }
        return legacy
    }

    /// Applies the journal's records that the snapshot does not include.
    ///
    /// - Returns: Why reading stopped early, or `nil` when every complete line was read. A last line without its
    ///   newline is a record whose write a crash cut short: it is dropped.
    private static func replay(
        _ bytes: [UInt8], onto legacy: inout Legacy, decoder: JSONDecoder
    ) -> (reason: String, consequence: String)? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // empty after a final newline; otherwise the cut-short record
        var applied = 0
        for (index, line) in lines.enumerated() {
            let kept = "the \(applied) changes before line \(index + 1) were imported, the rest were not"
            let record: JournalRecord<Payload, Category, Route>
            do {
                record = try decoder.decode(JournalRecord<Payload, Category, Route>.self, from: Data(line))
            } catch {
                return ("line \(index + 1): \(describe(error))", kept)
            }
            if record.sequence <= legacy.sequence { continue }
            guard record.sequence == legacy.sequence + 1 else {
                return (
                    "line \(index + 1) holds change \(record.sequence) where \(legacy.sequence + 1) was expected",
                    kept
                )
            }
            legacy.state.apply(record.change)
            legacy.sequence = record.sequence
            applied += 1
        }
        return nil
    }

    /// The contents of a file, `nil` when it does not exist.
    private static func read(_ path: String) throws(NotificationStoreError) -> [UInt8]? {
        do throws(DurableFile.Failure) {
            return try DurableFile.read(path)
        } catch {
            throw NotificationStoreError.refusal(path, error, isDirectory: false)
                ?? .cannotReadFile(path: path, errno: error.code)
        }
    }
}
