/// A state file that could not be read when the store opened, and where it went.
///
/// The store never empties or overwrites such a file: it renames it to `<name>.corrupt-<UTC time>` next to where it
/// was, starts from what it could read, and reports it here so the daemon can tell the user.
package struct CorruptStateFile: Sendable, Hashable, CustomStringConvertible {
    /// Where the file was.
    package var path: String
    /// Where it is now.
    package var movedTo: String
    /// Why it could not be read.
    package var reason: String
    /// What the store kept: for the snapshot, nothing of it; for the journal, the changes before the bad record.
    package var consequence: String

    /// Makes a report.
    package init(path: String, movedTo: String, reason: String, consequence: String) {
        self.path = path
        self.movedTo = movedTo
        self.reason = reason
        self.consequence = consequence
    }

    /// What happened and what the user can do, naming the new path.
    package var description: String {
        "the state file \(path) could not be read (\(reason)); it was moved to \(movedTo), and \(consequence). "
            + "Keep that file to recover its contents by hand, or delete it"
    }
}
