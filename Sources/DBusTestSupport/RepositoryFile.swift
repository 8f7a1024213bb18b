import Foundation

/// The path of a file of this repository, for tests that check what it says (the README, the manual pages, the
/// interface XML): found from where this source file is, so it works from any working directory.
///
/// - Parameter relativePath: the path from the repository's top, e.g. `README.md` or `man/notification-bridge.1`.
public func repositoryFile(_ relativePath: String) -> String {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(relativePath).path
}
