import Logging
import Synchronization

/// A log handler that keeps every entry, for tests that check what was logged (and what never is).
public struct RecordingLogHandler: LogHandler {
    /// The entries logged through any copy of the handler: level, then the message followed by its metadata.
    public final class Entries: Sendable {
        private let storage = Mutex<[(Logger.Level, String)]>([])

        /// Makes an empty record.
        public init() {}

        /// Every entry so far, oldest first.
        public var all: [(Logger.Level, String)] { storage.withLock { $0 } }

        func append(_ entry: (Logger.Level, String)) { storage.withLock { $0.append(entry) } }
    }

    /// Where the entries go.
    public let entries: Entries
    /// The handler's metadata.
    public var metadata: Logger.Metadata = [:]
    /// Every level is kept unless a test lowers it.
    public var logLevel: Logger.Level = .trace

    /// A handler that records into `entries`.
    public init(entries: Entries) {
        self.entries = entries
    }

    /// The metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Records one entry.
    public func log(event: LogEvent) {
        entries.append((event.level, "\(event.message) \(event.metadata ?? [:])"))
    }
}
