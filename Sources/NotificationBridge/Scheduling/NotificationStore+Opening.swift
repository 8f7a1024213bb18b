import Foundation
import Glibc

/// Reading the state when the store opens, and moving aside what cannot be read.
extension NotificationStore {
    struct Recovered {
        var state = State()
        var sequence: UInt64 = 0
        var snapshotBytes = 0
        var journal: Int32 = -1
        var journalBytes = 0
        var movedAside: [CorruptStateFile] = []
        /// Whether the files on disk should be replaced by a snapshot of ``state`` and an empty journal.
        var needsSnapshot = false
    }

    static func recover(
        directory: String,
        snapshotPath: String,
        journalPath: String,
        now: Date
    ) throws(NotificationStoreError) -> Recovered {
        do throws(DurableFile.Failure) {
            try DurableFile.makeDirectory(directory, mode: 0o700)
        } catch {
            throw NotificationStoreError.refusal(directory, error, isDirectory: true)
                ?? .cannotCreateDirectory(path: directory, errno: error.code)
        }
        removeLeftovers(in: directory)

        var recovered = Recovered()
        let decoder = JSONDecoder()
        if let bytes = try read(snapshotPath) {
            do {
                let snapshot = try decoder.decode(StoreSnapshot<Payload, Category, Route>.self, from: Data(bytes))
                (recovered.state, recovered.sequence) = (snapshot.state, snapshot.sequence)
                recovered.snapshotBytes = bytes.count
            } catch {
                recovered.movedAside.append(
                    try moveAside(
                        snapshotPath,
                        reason: describe(error),
                        consequence: "the bridge starts with no scheduled notifications, categories or delivered "
                            + "notifications",
                        now: now
                    )
                )
                recovered.needsSnapshot = true
            }
        }

        if let bytes = try read(journalPath), !bytes.isEmpty {
            recovered.needsSnapshot = true
            if !recovered.movedAside.isEmpty {
                recovered.movedAside.append(
                    try moveAside(
                        journalPath,
                        reason: "it holds changes to \(snapshotPath), which could not be read",
                        consequence: "its changes were not applied",
                        now: now
                    )
                )
            } else if let problem = replay(bytes, onto: &recovered, decoder: decoder) {
                recovered.movedAside.append(
                    try moveAside(journalPath, reason: problem.reason, consequence: problem.consequence, now: now)
                )
            }
        }

        do throws(DurableFile.Failure) {
            (recovered.journal, recovered.journalBytes) = try DurableFile.openForAppending(journalPath, mode: 0o600)
        } catch {
            throw NotificationStoreError.refusal(journalPath, error, isDirectory: false)
                ?? .cannotWrite(path: journalPath, errno: error.code)
        }
        return recovered
    }


    /// Applies the journal's records that the snapshot does not include.
    ///
    /// - Returns: Why reading stopped early, or `nil` when every complete line was read. A last line without its
    ///   newline is a record whose write a crash cut short (its ``apply(_:)-(Change)`` never returned): it is dropped.
    private static func replay(
        _ bytes: [UInt8],
        onto recovered: inout Recovered,
        decoder: JSONDecoder
    ) -> (reason: String, consequence: String)? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // empty after a final newline; otherwise the cut-short record
        var applied = 0
        for (index, line) in lines.enumerated() {
            let kept = "the \(applied) changes before line \(index + 1) were applied, the rest were not"
            let record: JournalRecord<Payload, Category, Route>
            do {
                record = try decoder.decode(JournalRecord<Payload, Category, Route>.self, from: Data(line))
            } catch {
                return ("line \(index + 1): \(describe(error))", kept)
            }
            if record.sequence <= recovered.sequence { continue }
            guard record.sequence == recovered.sequence + 1 else {
                return (
                    "line \(index + 1) holds change \(record.sequence) where \(recovered.sequence + 1) was expected",
                    kept
                )
            }
            recovered.state.apply(record.change)
            recovered.sequence = record.sequence
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
                ?? .cannotRead(path: path, errno: error.code)
        }
    }

    /// Removes temporary files left by a snapshot write that was interrupted.
    private static func removeLeftovers(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(snapshotName + ".tmp-") {
            unlink(directory + "/" + name)
        }
    }

    /// Renames a file to `<path>.corrupt-<UTC time>` (with `-2`, `-3`, … if taken).
    private static func moveAside(
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
    private static func compactUTCStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))"
            + "\(two(parts.second))Z"
    }

    /// A short reason for a decoding failure, naming the place in the document.
    private static func describe(_ error: any Error) -> String {
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
