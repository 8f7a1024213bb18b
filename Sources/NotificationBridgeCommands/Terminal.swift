import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a command writes: the process's standard output and error, or, for a command run in-process
/// (``Invocation/execute()``), a recording.
///
/// Every command writes through ``current`` (and talks through ``BridgeClient``, on ``BridgeClient/bus``), so that a
/// test runs a command line in its own process, as swift-argument-parser's tests run commands, and reads what it
/// printed and its exit status as values.
package final class Terminal: Sendable {
    /// Whether what is written is kept (rather than written to the process's descriptors).
    private let records: Bool
    private let recorded = Mutex((output: "", error: ""))
    /// The width help text is wrapped to; `nil` for the process's terminal (`COLUMNS`, else the terminal's width, else
    /// 80).
    package let columns: Int?

    private init(records: Bool, columns: Int?) {
        self.records = records
        self.columns = columns
    }

    /// The process's standard output and error.
    package static let process = Terminal(records: false, columns: nil)

    /// A terminal that keeps what is written, `columns` wide (the process's terminal's width when `nil`).
    package static func recording(columns: Int? = nil) -> Terminal { Terminal(records: true, columns: columns) }

    /// The terminal of the command running in this task: ``process`` unless one is given with `$current.withValue`.
    @TaskLocal package static var current = Terminal.process

    /// What was written to standard output; empty for ``process``.
    package var standardOutput: String { recorded.withLock { $0.output } }
    /// What was written to standard error; empty for ``process``.
    package var standardError: String { recorded.withLock { $0.error } }

    /// Writes `text` and `terminator` to standard output (buffered, in the process, as `print` does).
    package func print(_ text: String, terminator: String = "\n") {
        guard records else { return Swift.print(text, terminator: terminator) }
        recorded.withLock { $0.output += text + terminator }
    }

    /// Writes a line to standard error (unbuffered, in the process, so that it comes out before the process exits).
    package func printError(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        guard records else { return Self.writeAll(line, to: 2) }
        recorded.withLock { $0.error += line }
    }

    /// Sends what standard output holds on (a pipe is block-buffered): each line of a command that runs long goes out
    /// as it comes.
    package func flush() {
        if !records { fflush(nil) }
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = write(descriptor, rest.baseAddress, rest.count)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}

/// Writes to standard output of the command's terminal (``Terminal/current``).
func print(_ text: String, terminator: String = "\n") {
    Terminal.current.print(text, terminator: terminator)
}

/// Swift's `print` would bypass the command's terminal: text is printed as a `String`, through the function above.
@available(*, unavailable, message: "print a String, which goes to the command's terminal")
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

/// Writes a line to standard error of the command's terminal (``Terminal/current``).
func printError(_ text: String) {
    Terminal.current.printError(text)
}
