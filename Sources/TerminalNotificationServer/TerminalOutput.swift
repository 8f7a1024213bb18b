#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes lines to a file descriptor at once, without the buffering of `print` (which holds output back when it goes
/// into a pipe, where a script waits for it).
public struct TerminalOutput: Sendable {
    /// The descriptor written to.
    public let descriptor: Int32

    /// Writes to `descriptor` (standard output by default).
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Writes each line followed by a newline.
    public func write(lines: [String]) {
        write(lines.map { $0 + "\n" }.joined())
    }

    /// Writes one line followed by a newline.
    public func line(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` as it is, retrying after interruptions and short writes. A closed reader (the terminal went
    /// away) loses the text; the end of input then stops the server.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
