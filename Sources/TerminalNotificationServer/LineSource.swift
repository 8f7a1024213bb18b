import Glibc

/// Reads lines from a descriptor on a thread of its own, so a blocking read never holds one of Swift's threads.
///
/// The thread lives until the input ends; a program that stops earlier simply exits with it.
public enum LineSource {
    /// Calls `deliver` with each line (without its line break), then with `nil` at the end of the input.
    public static func start(reading descriptor: Int32, _ deliver: @escaping @Sendable (String?) -> Void) {
        startThread {
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
    }

    /// Runs `body` on a new detached thread.
    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(created == 0, "cannot start the thread that reads the terminal: error \(created)")
        pthread_detach(thread)
    }

    /// The thread's work, boxed so that it can pass through `pthread_create`'s context pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }
}
