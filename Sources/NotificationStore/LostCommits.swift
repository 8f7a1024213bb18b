/// A state that came back with fewer changes than the last run acknowledged: the database was emptied, or its
/// write-ahead log was deleted or damaged after the process stopped without closing it (`kill -9`, a crash).
///
/// SQLite cannot see it (a missing log looks like one that was folded into the file; a damaged one is read up to its
/// first bad frame), so the store compares the count of transactions the database holds with the one
/// ``CommitMarker`` kept. The store goes on with what the database holds; a damaged log is copied aside first, with
/// the database it belongs to, since it may hold some of what was lost.
package struct LostCommits: Sendable, Hashable, CustomStringConvertible {
    /// The database file.
    package var path: String
    /// What was found, in words: "it was empty (0 bytes)", "its write-ahead log … was missing".
    package var found: String
    /// How many transactions the last run acknowledged.
    package var acknowledged: Int64
    /// How many of them the database holds.
    package var present: Int64
    /// Where the files were copied as they were found; empty when there was nothing to keep.
    package var copies: [String]

    /// Makes a report.
    package init(path: String, found: String, acknowledged: Int64, present: Int64, copies: [String]) {
        self.path = path
        self.found = found
        self.acknowledged = acknowledged
        self.present = present
        self.copies = copies
    }

    /// What happened, what is lost, and where the files went.
    package var description: String {
        let lost = acknowledged - present
        return "the saved state \(path) came back with fewer changes than were saved: \(found). It holds "
            + "\(present) of the \(acknowledged) changes the last run acknowledged; the scheduled notifications, "
            + "categories and routes of the last \(lost) change\(lost == 1 ? "" : "s") are lost, and the bridge goes "
            + "on with what is left. "
            + (copies.isEmpty
                ? "Nothing of the lost changes was left in the files to keep"
                : "The files as found were copied to \(copies.joined(separator: " and ")); keep them to recover "
                    + "their contents by hand, or delete them")
    }
}
