import Foundation

/// Writes small executable scripts for tests.
///
/// A script written with an ordinary `write` keeps its descriptor open in any child forked meanwhile by another test
/// of the same process, and running it then fails with "Text file busy"; this one opens the file close-on-exec.
public enum ExecutableScript {
    /// Writes `text` to `path` with mode 0755 and returns the path.
    @discardableResult
    public static func write(_ text: String, to path: String) throws -> String {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw TestSupportError("cannot write \(path): errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw TestSupportError("cannot write \(path): errno \(errno)")
        }
        fchmod(descriptor, 0o755)
        return path
    }

    /// Writes `text` to a new file in the temporary folder and returns its path.
    public static func temporary(_ text: String, name: String = "script") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("nb-\(name)-\(UUID().uuidString.prefix(8))").path
        return try write(text, to: path)
    }
}
