import Foundation
import Glibc
import Synchronization

/// The daemon's durable state: scheduled notifications, categories and the routes of delivered notifications,
/// kept in a private directory so that they survive a restart or a `kill -9` at any moment.
///
/// Two files, both mode 0600 in a directory of mode 0700:
/// - `state.json`, a snapshot: `{"version": 1, "sequence": N, "pending": …, "categories": …, "delivered": …}`.
///   It is only ever replaced atomically: written to a temporary file in the same directory, synced, renamed over
///   the old one, and the directory synced. A crash at any point leaves the old snapshot or the new one, whole.
/// - `journal.jsonl`, the changes since the snapshot, one JSON object per line, each synced (`fdatasync`) before
///   ``apply(_:)-(Change)`` returns. A change costs one small append and one sync instead of rewriting the whole state; when
///   the journal outgrows the snapshot, the store writes a new snapshot and empties the journal, so the cost per
///   change stays constant however many notifications are stored. A line cut short by a crash is the change whose
///   ``apply(_:)-(Change)`` never returned, and is dropped.
///
/// Nothing is ever silently emptied: a snapshot or journal that cannot be read (not JSON, an unknown version, a
/// missing field) is renamed to `<name>.corrupt-<UTC time>` and listed in ``movedAside``, whose descriptions name the
/// new path; a file that cannot be opened at all makes the initializer throw, and is left where it is.
///
/// The methods block on disk I/O (an ``apply(_:)-(Change)`` costs one `fdatasync`, a few milliseconds on a virtual disk):
/// call them from the one task that owns the daemon's state. They are serialized by a lock.
package final class NotificationStore<Payload, Category, Route>: Sendable
where Payload: Codable & Sendable, Category: Codable & Sendable, Route: Codable & Sendable {
    /// The stored state.
    package typealias State = StoredNotifications<Payload, Category, Route>
    /// One change to the state.
    package typealias Change = StoreChange<Payload, Category, Route>

    /// The name of the snapshot file.
    package static var snapshotName: String { "state.json" }
    /// The name of the journal file.
    package static var journalName: String { "journal.jsonl" }

    /// The directory holding the files.
    package let directory: String
    /// The path of the snapshot, `<directory>/state.json`.
    package let snapshotPath: String
    /// The path of the journal, `<directory>/journal.jsonl`.
    package let journalPath: String

    /// The files that could not be read when the store opened, and where they were moved; normally empty.
    ///
    /// Show each ``CorruptStateFile/description`` to the user (log it at error level): it names the moved file.
    package let movedAside: [CorruptStateFile]

    struct Inner: Sendable {
        var state: State
        /// The sequence number of the last change applied.
        var sequence: UInt64
        var journal: Int32
        var journalBytes: Int
        var snapshotBytes: Int
        /// A failed append could not be cut back off the journal: the next change goes through a snapshot.
        var journalIsDamaged = false
        /// The journal size below which it is never compacted.
        var minimumCompactionBytes: Int
        var faults = DurableFile.Faults()
    }

    let inner: Mutex<Inner>

    /// Opens the store in `directory`, creating the directory (mode 0700) if needed, and reads the state.
    ///
    /// Files that cannot be read as state are moved aside (see ``movedAside``); leftovers of an interrupted write are
    /// removed; a journal with changes is folded into a new snapshot.
    ///
    /// - Parameters:
    ///   - directory: Usually ``defaultDirectory(environment:)``.
    ///   - now: The time used to name files moved aside.
    /// - Throws: ``NotificationStoreError`` when the directory cannot be created, a file exists but cannot be read,
    ///   a file cannot be moved aside, or the folded state cannot be written.
    package convenience init(directory: String, now: Date = Date()) throws(NotificationStoreError) {
        try self.init(directory: directory, now: now, minimumCompactionBytes: 256 * 1024)
    }

    /// Opens the store, compacting the journal once it exceeds `minimumCompactionBytes` (and the snapshot's size).
    init(directory: String, now: Date, minimumCompactionBytes: Int) throws(NotificationStoreError) {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.directory = directory
        self.snapshotPath = base + "/" + Self.snapshotName
        self.journalPath = base + "/" + Self.journalName
        let recovered = try Self.recover(
            directory: directory,
            snapshotPath: snapshotPath,
            journalPath: journalPath,
            now: now
        )
        movedAside = recovered.movedAside
        inner = Mutex(
            Inner(
                state: recovered.state,
                sequence: recovered.sequence,
                journal: recovered.journal,
                journalBytes: recovered.journalBytes,
                snapshotBytes: recovered.snapshotBytes,
                minimumCompactionBytes: minimumCompactionBytes
            )
        )
        guard recovered.needsSnapshot else { return }
        // Fold what the journal held into a snapshot, so the next start reads one file and the journal starts empty.
        try inner.withLock { inner throws(NotificationStoreError) in
            try writeSnapshot(inner.state, sequence: inner.sequence, into: &inner)
        }
    }

    deinit {
        inner.withLock { _ = close($0.journal) }
    }

    /// The stored state, as of the last change.
    package var state: State {
        inner.withLock { $0.state }
    }

    /// Records one change durably.
    ///
    /// - Throws: ``NotificationStoreError/cannotWrite(path:errno:)`` or
    ///   ``NotificationStoreError/cannotEncode(reason:)``; the change is then neither in ``state`` nor on disk.
    package func apply(_ change: Change) throws(NotificationStoreError) {
        try apply([change])
    }

    /// Records several changes durably, with one sync: all of them or none.
    ///
    /// - Throws: As ``apply(_:)-(Change)``; none of the changes is recorded then.
    package func apply(_ changes: [Change]) throws(NotificationStoreError) {
        guard !changes.isEmpty else { return }
        try inner.withLock { inner throws(NotificationStoreError) in
            var state = inner.state
            var sequence = inner.sequence
            var bytes: [UInt8] = []
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for change in changes {
                sequence += 1
                state.apply(change)
                do {
                    bytes += try encoder.encode(JournalRecord(sequence: sequence, change: change))
                } catch {
                    throw .cannotEncode(reason: "\(error)")
                }
                bytes.append(UInt8(ascii: "\n"))
            }
            if inner.journalIsDamaged {
                try writeSnapshot(state, sequence: sequence, into: &inner)
                return
            }
            do throws(DurableFile.Failure) {
                try DurableFile.append(bytes, to: inner.journal, faults: inner.faults)
            } catch {
                // Cut off whatever part of the record reached the file, so the next append starts a clean line.
                do throws(DurableFile.Failure) {
                    try DurableFile.truncate(inner.journal, to: inner.journalBytes)
                } catch {
                    inner.journalIsDamaged = true
                }
                throw .cannotWrite(path: journalPath, errno: error.code)
            }
            inner.state = state
            inner.sequence = sequence
            inner.journalBytes += bytes.count
            if inner.journalBytes > max(inner.minimumCompactionBytes, inner.snapshotBytes) {
                // The changes are durable in the journal already; a failed compaction is retried at the next change.
                try? writeSnapshot(state, sequence: sequence, into: &inner)
            }
        }
    }

    /// Replaces the whole state, atomically and durably.
    ///
    /// - Throws: ``NotificationStoreError/cannotWrite(path:errno:)`` or
    ///   ``NotificationStoreError/cannotEncode(reason:)``; the previous state is unchanged then, in ``state`` and on
    ///   disk.
    package func save(_ state: State) throws(NotificationStoreError) {
        try inner.withLock { inner throws(NotificationStoreError) in
            try writeSnapshot(state, sequence: inner.sequence, into: &inner)
        }
    }

    /// Writes `state` as the snapshot and empties the journal, whose changes it includes.
    func writeSnapshot(_ state: State, sequence: UInt64, into inner: inout Inner) throws(NotificationStoreError) {
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            bytes = Array(try encoder.encode(StoreSnapshot(sequence: sequence, state: state)))
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
        do throws(DurableFile.Failure) {
            try DurableFile.replace(snapshotPath, with: bytes, mode: 0o600, faults: inner.faults)
        } catch {
            throw .cannotWrite(path: snapshotPath, errno: error.code)
        }
        inner.state = state
        inner.sequence = sequence
        inner.snapshotBytes = bytes.count
        // Every record in the journal is now in the snapshot (and would be skipped when reading), so a failure to
        // empty it costs only space; it is tried again at the next compaction.
        do throws(DurableFile.Failure) {
            try DurableFile.truncate(inner.journal, to: 0)
            inner.journalBytes = 0
            inner.journalIsDamaged = false
        } catch {}
    }

    /// Makes the following writes fail after writing `bytes` bytes (`nil`: write normally); for tests.
    func injectWriteFailure(afterBytes bytes: Int?) {
        inner.withLock { $0.faults.failWriteAfterBytes = bytes }
    }
}
