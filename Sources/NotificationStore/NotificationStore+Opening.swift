import FoundationEssentials
import Glibc

/// Opening the database and moving aside what cannot be read.
extension NotificationStore {
    struct Opened {
        var database: StoreDatabase
        var state = State()
        var movedAside: [CorruptStateFile] = []
        /// Whether the disk was full when the database was opened.
        var onFullDisk = false
        /// The transactions the database holds (see `StoreDatabase.committedCount()`).
        var committed: Int64 = 0
        /// Fewer than the last run acknowledged, if so.
        var lostCommits: LostCommits?
    }

    static func open(
        directory: String,
        databasePath: String,
        now: Date
    ) throws(NotificationStoreError) -> Opened {
        do throws(DurableFile.Failure) {
            try DurableFile.makeDirectory(directory, mode: 0o700)
        } catch {
            throw NotificationStoreError.refusal(directory, error, isDirectory: true)
                ?? .cannotCreateDirectory(path: directory, errno: error.code)
        }
        for path in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            if let kind = DurableFile.oddKind(at: path) {
                throw .notRegular(path: path, kind: kind, isDirectory: false)
            }
        }
        var onFullDisk = false
        // The files SQLite creates (the database, its log) are private: created 0600 whatever the umask.
        let umask = Glibc.umask(0o077)
        defer { _ = Glibc.umask(umask) }

        // What the last run acknowledged, and the files as they are before SQLite touches them.
        let acknowledged = CommitMarker.read(markerPath(databasePath))
        let databaseSize = fileSize(databasePath)
        let logSize = fileSize(databasePath + "-wal")
        var opened: Opened
        do {
            let database: StoreDatabase
            do {
                database = try StoreDatabase(path: databasePath)
            } catch let failure as SQLiteFailure where failure.meansNoSpace {
                // A full disk cannot take the log's shared-memory index: keep it in memory, read what was saved, and
                // let each write fail until there is space again.
                database = try StoreDatabase(path: databasePath, indexInMemory: true)
                onFullDisk = true
            }
            opened = Opened(database: database)
            do {
                opened.state = try decodeState(of: database)
                opened.committed = try database.committedCount()
            } catch {
                database.close()
                throw error
            }
        } catch let unreadable as StoreDatabase.Unreadable {
            let moved = try moveAsideDatabase(databasePath, reason: unreadable.reason, now: now)
            opened = Opened(database: try openDatabase(databasePath))
            opened.movedAside.append(moved)
        } catch {
            throw .cannotRead(
                path: databasePath,
                failure: error as? SQLiteFailure
                    ?? SQLiteFailure(
                        code: .cannotOpen, message: "\(error)", operation: "opening \(databasePath)"))
        }
        opened.onFullDisk = onFullDisk
        if opened.movedAside.isEmpty, let acknowledged, acknowledged > opened.committed {
            opened.lostCommits = lostCommits(
                databasePath, databaseSize: databaseSize, logSize: logSize, acknowledged: acknowledged,
                present: opened.committed, now: now)
        }
        opened.database.prepareForWriting()
        return opened
    }

    /// The path of the ``CommitMarker`` beside the database at `databasePath`.
    static func markerPath(_ databasePath: String) -> String {
        let directory = databasePath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return directory + "/" + CommitMarker.fileName
    }

    /// The size of the file at `path`, `nil` when there is none.
    private static func fileSize(_ path: String) -> Int? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// The report of a database that holds `present` of the `acknowledged` transactions, with the files copied aside
    /// as found when there is anything in them to keep (a damaged log).
    private static func lostCommits(
        _ path: String, databaseSize: Int?, logSize: Int?, acknowledged: Int64, present: Int64, now: Date
    ) -> LostCommits {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let found: String
        switch (databaseSize, logSize) {
        case (nil, _):
            found = "\(name) was missing"
        case (0?, _):
            found = "\(name) was empty (0 bytes)"
        case (_, nil):
            found =
                "its write-ahead log \(name)-wal was missing, which held the last changes when the daemon stopped "
                + "without closing the file"
        case (_, _?):
            found =
                "its write-ahead log \(name)-wal was damaged or cut short (SQLite reads a log up to its first bad "
                + "frame)"
        }
        // Only a damaged log holds anything of the lost changes: it is kept, with the file it belongs to. An empty or
        // missing file, or a missing log, leaves nothing to keep.
        var copies: [String] = []
        if let databaseSize, databaseSize > 0, logSize != nil {
            let destination = freeName("\(path).corrupt-\(compactUTCStamp(now))")
            if (try? DurableFile.copy(path, to: destination)) != nil {
                copies.append(destination)
                if (try? DurableFile.copy(path + "-wal", to: destination + "-wal")) != nil {
                    copies.append(destination + "-wal")
                }
            }
        }
        return LostCommits(path: path, found: found, acknowledged: acknowledged, present: present, copies: copies)
    }

    /// `path`, or `path-2`, `path-3`, … when it is taken.
    private static func freeName(_ path: String) -> String {
        var destination = path
        var attempt = 1
        while DurableFile.exists(destination) {
            attempt += 1
            destination = "\(path)-\(attempt)"
        }
        return destination
    }

    /// Opens a database that must be new or readable.
    private static func openDatabase(_ path: String) throws(NotificationStoreError) -> StoreDatabase {
        do {
            return try StoreDatabase(path: path)
        } catch {
            throw .cannotRead(
                path: path,
                failure: error as? SQLiteFailure
                    ?? SQLiteFailure(
                        code: .cannotOpen, message: "\(error)", operation: "opening \(path)"))
        }
    }

    /// Moves the database aside with its log (`<moved>-wal`, where SQLite looks for it when the moved file is
    /// opened) and drops its shared-memory index.
    private static func moveAsideDatabase(
        _ path: String, reason: String, now: Date
    ) throws(NotificationStoreError) -> CorruptStateFile {
        let moved = try moveAside(
            path, reason: reason,
            consequence: "the bridge starts with no scheduled notifications, categories or delivered notifications",
            now: now)
        if DurableFile.exists(path + "-wal") {
            try? DurableFile.move(path + "-wal", to: moved.movedTo + "-wal")
        }
        unlink(path + "-shm")
        return moved
    }

    /// Renames a file to `<path>.corrupt-<UTC time>` (with `-2`, `-3`, … if taken).
    static func moveAside(
        _ path: String,
        reason: String,
        consequence: String,
        now: Date
    ) throws(NotificationStoreError) -> CorruptStateFile {
        let stamp = compactUTCStamp(now)
        var destination = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while DurableFile.exists(destination) {
            attempt += 1
            destination = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        do throws(DurableFile.Failure) {
            try DurableFile.move(path, to: destination)
        } catch {
            throw .cannotMoveAside(path: path, destination: destination, errno: error.code, reason: reason)
        }
        return CorruptStateFile(path: path, movedTo: destination, reason: reason, consequence: consequence)
    }

    /// `YYYYMMDDTHHMMSSZ`: sortable, and free of characters that need quoting in a shell.
    static func compactUTCStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))"
            + "\(two(parts.second))Z"
    }

    /// A short reason for a decoding failure, naming the place in the document.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (context, what): (DecodingError.Context, String)
        switch error {
        case .dataCorrupted(let c): (context, what) = (c, "")
        case .keyNotFound(let key, let c): (context, what) = (c, "missing key \"\(key.stringValue)\"")
        case .typeMismatch(let type, let c): (context, what) = (c, "expected \(type)")
        case .valueNotFound(let type, let c): (context, what) = (c, "expected \(type), found null")
        @unknown default: return "\(error)"
        }
        let place = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let detail = [what, context.underlyingError.map { "\($0)" } ?? context.debugDescription]
            .filter { !$0.isEmpty }.joined(separator: ": ")
        return place.isEmpty ? detail : "at \(place.hasPrefix(".") ? String(place.dropFirst()) : place): \(detail)"
    }
}

extension NotificationStore {
    /// `$XDG_STATE_HOME/notification-bridge`, or `$HOME/.local/state/notification-bridge` when `XDG_STATE_HOME` is
    /// unset, empty or relative (which the XDG base-directory specification says to ignore).
    ///
    /// - Parameter environment: The environment to read; the process's by default. Without `HOME`, the home
    ///   directory comes from the password database.
    package static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            return (stateHome.hasSuffix("/") ? String(stateHome.dropLast()) : stateHome) + "/notification-bridge"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordDatabaseHome() ?? "/"
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state/notification-bridge"
    }
}

/// The home directory of the current user from the password database, for a process started without `HOME`.
private func passwordDatabaseHome() -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var storage = [CChar](repeating: 0, count: 4096)
    return storage.withUnsafeMutableBufferPointer { buffer -> String? in
        // pw_dir points into the buffer, so it is read before the buffer goes away.
        guard getpwuid_r(getuid(), &entry, buffer.baseAddress!, buffer.count, &result) == 0, result != nil,
            let home = entry.pw_dir
        else { return nil }
        return String(cString: home)
    }
}
