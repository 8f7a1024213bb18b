import DBusCore

/// The options of `TurnOnFocus`: what the mode lets through, and when it ends by itself. ``FocusRequest`` reads and
/// writes them.
public enum FocusOptionKeys {
    /// `allow-apps` (as).
    public static let allowApps = BridgeKey.strings(
        "allow-apps", example: "<['org.example.Chat']>",
        summary: "the apps (desktop id or app name) whose every notification still reaches the user")
    /// `allow-threads` (as): each `APP/THREAD`.
    public static let allowThreads = BridgeKey.strings(
        "allow-threads", example: "<['org.example.Chat/ann']>",
        summary: "the threads (one conversation) whose notifications still reach the user, each as APP/THREAD")
    /// `for` (x): seconds from now.
    public static let duration = BridgeKey.int64(
        "for",
        summary: "it ends by itself after this many seconds; leave out for and until to keep it on until turned off")
    /// `until` (x): seconds since 1970 UTC.
    public static let until = BridgeKey.int64(
        "until", summary: "it ends by itself at this time, in seconds since 1970 UTC; not together with for")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [allowApps.info, allowThreads.info, duration.info, until.info]
}

/// A focus mode to turn on, as `TurnOnFocus` takes it: its name, what it lets through, and when it ends by itself.
public struct FocusRequest: Sendable, Hashable {
    /// When a mode turned on ends by itself.
    public enum End: Sendable, Hashable {
        /// Only when turned off.
        case never
        /// This many seconds after it is turned on.
        case after(seconds: Int64)
        /// At this time, in seconds since 1970 UTC.
        case at(seconds: Int64)
    }

    /// One conversation that still reaches the user: a thread of one app.
    public struct Thread: Sendable, Hashable {
        /// The app, by desktop id or app name.
        public var app: String
        /// The thread's id, as the app posts it.
        public var id: String

        /// Names a thread.
        public init(app: String, id: String) {
            self.app = app
            self.id = id
        }

        /// Reads a thread written `APP/THREAD` (the app before the first slash); `nil` when either part is empty.
        public init?(written text: String) {
            guard let slash = text.firstIndex(of: "/"), slash != text.startIndex,
                text.index(after: slash) != text.endIndex
            else { return nil }
            self.init(app: String(text[..<slash]), id: String(text[text.index(after: slash)...]))
        }

        /// As ``init(written:)`` reads it.
        public var written: String { "\(app)/\(id)" }
    }

    /// The mode's name, such as `work` or `sleep`.
    public var name: String
    /// The apps whose every notification still reaches the user.
    public var apps: [String]
    /// The threads whose every notification still reaches the user.
    public var threads: [Thread]
    /// When it ends by itself.
    public var end: End

    /// Describes a mode to turn on.
    public init(name: String, apps: [String] = [], threads: [Thread] = [], end: End = .never) {
        self.name = name
        self.apps = apps
        self.threads = threads
        self.end = end
    }

    /// Reads the arguments of `TurnOnFocus`.
    ///
    /// - Throws: `InvalidArgument` naming the option that is wrong: a thread not written `APP/THREAD`, a duration that
    ///   is not positive, or both `for` and `until`.
    public init(name: String, options: DBusValue) throws(DBusFailure) {
        let reader = try VariantDictionary(options, place: "options", keys: FocusOptionKeys.all)
        self.name = name
        apps = try reader.decode(FocusOptionKeys.allowApps) ?? []
        threads = []
        for text in try reader.decode(FocusOptionKeys.allowThreads) ?? [] {
            guard let thread = Thread(written: text) else {
                throw KeyPlace(place: reader.place, key: FocusOptionKeys.allowThreads.name).invalid(
                    "holds \(quotedForMessage(text)); write each thread as APP/THREAD, e.g. org.example.Chat/ann")
            }
            threads.append(thread)
        }
        switch (try reader.decode(FocusOptionKeys.duration), try reader.decode(FocusOptionKeys.until)) {
        case (nil, nil): end = .never
        case (let seconds?, nil):
            guard seconds > 0 else {
                throw KeyPlace(place: reader.place, key: FocusOptionKeys.duration.name).invalid(
                    "is \(seconds); give a number of seconds above 0")
            }
            end = .after(seconds: seconds)
        case (nil, let seconds?): end = .at(seconds: seconds)
        case (_?, _?):
            throw BridgeError.invalid(
                "options give both '\(FocusOptionKeys.duration.name)' and '\(FocusOptionKeys.until.name)'; give one")
        }
    }

    /// The options as `TurnOnFocus` takes them.
    public var options: DBusValue {
        var entries = WireEntries()
        if !apps.isEmpty { entries[FocusOptionKeys.allowApps] = apps }
        if !threads.isEmpty { entries[FocusOptionKeys.allowThreads] = threads.map(\.written) }
        switch end {
        case .never: break
        case .after(let seconds): entries[FocusOptionKeys.duration] = seconds
        case .at(let seconds): entries[FocusOptionKeys.until] = seconds
        }
        return entries.value
    }
}
