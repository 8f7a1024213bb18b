import Foundation
import ProcessSupport

/// Reads lines from a pipe a child process writes to, with a bound on every wait.
public final class LineReader: @unchecked Sendable {
    /// The read end of the pipe; owned (closed) by this reader.
    public let descriptor: Int32
    // Only touched by the one caller reading lines at a time.
    private var buffer: [UInt8] = []

    /// Takes over `descriptor`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Makes a pipe; returns the reader for its read end and the write end to give a child (close it after
    /// spawning).
    public static func pipe() throws -> (reader: LineReader, writeEnd: Int32) {
        // Both ends close-on-exec, so that no program another test starts meanwhile keeps the write end open.
        let ends = try ClosedOnExecPipe.make()
        return (LineReader(descriptor: ends.read), ends.write)
    }

    /// The next line, without its newline.
    ///
    /// - Throws: ``TestSupportError`` when the writer closes first or `limit` passes.
    public func nextLine(within limit: Duration, waitingFor what: String) throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw TestSupportError("timed out after \(limit) waiting for \(what)") }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 1000))
            guard Glibc.poll(&entry, 1, milliseconds) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw TestSupportError("the output ended while waiting for \(what)") }
            buffer += chunk[..<count]
        }
    }
}
