/// A state file of an older version whose contents the store imported when it opened, and where it went.
package struct ImportedStateFile: Sendable, Hashable, CustomStringConvertible {
    /// Where the file was.
    package var path: String
    /// Where it is now.
    package var movedTo: String

    /// Makes a report.
    package init(path: String, movedTo: String) {
        self.path = path
        self.movedTo = movedTo
    }

    /// What happened and what the user can do, naming the new path.
    package var description: String {
        "the state of an older version in \(path) was imported into the state database; the file was moved to "
            + "\(movedTo), which an older version would need to go back to: delete it once you do not"
    }
}
