#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Copies what an `exec` command writes to the daemon's standard error (the journal, under systemd), line by line,
/// each line prefixed so that the journal says which notification's command wrote it.
///
/// Each line goes out in one `write`, so lines of commands running at the same time, and the daemon's own log lines,
/// do not mix within a line. A line longer than ``maximumLineBytes`` is split into several, each with the prefix; a
/// last line without a newline gets one. The relay never adds anything of the response itself: only what the command
/// chose to print reaches the journal.
struct OutputRelay: Sendable {
    /// The longest piece of a line written at once.
    static let maximumLineBytes = 4096

    /// The read end of the command's output pipe; the relay closes it.
    let descriptor: Int32
    /// What each line starts with, such as `notification 3f2a…: `.
    let prefix: String
    /// Where the lines go: the daemon's standard error.
    var destination: Int32 = STDERR_FILENO

    /// Reads until every writer has closed the pipe (the command and whatever it started that kept it), then closes
    /// it. Blocks: run it on a thread of its own.
    func run() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
            while pending.count >= Self.maximumLineBytes {
                emit(pending[..<Self.maximumLineBytes])
                pending.removeFirst(Self.maximumLineBytes)
            }
        }
        if !pending.isEmpty { emit(pending[...]) }
        close(descriptor)
    }

    /// Writes one line with the prefix and a newline.
    private func emit(_ line: ArraySlice<UInt8>) {
        let bytes = Array(prefix.utf8) + line + [UInt8(ascii: "\n")]
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
