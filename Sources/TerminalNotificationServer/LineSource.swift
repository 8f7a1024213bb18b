import Foundation

/// Reads lines from a descriptor on a thread of its own, so a blocking read never holds one of Swift's threads.
///
/// The thread lives until the input ends; a program that stops earlier simply exits with it.
public enum LineSource {
    /// Calls `deliver` with each line (without its line break), then with `nil` at the end of the input.
    public static func start(reading descriptor: Int32, _ deliver: @escaping @Sendable (String?) -> Void) {
        let thread = Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                buffer += chunk[..<count]
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = buffer[..<newline]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    deliver(String(decoding: line, as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
            }
            if !buffer.isEmpty { deliver(String(decoding: buffer, as: UTF8.self)) }
            deliver(nil)
        }
        thread.name = "terminal-input"
        thread.start()
    }
}
