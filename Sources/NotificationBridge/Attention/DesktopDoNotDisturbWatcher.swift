import DBusCore
import Logging
import Synchronization

/// Follows the desktop's do-not-disturb: the switch of whichever notification server the session posts to, read the
/// way that server keeps it (``DoNotDisturbReader``), and read anew when the session reports another server
/// (``serverChanged(owner:info:)``).
///
/// | server (`GetServerInformation` name) | the switch | how a change is heard |
/// |---|---|---|
/// | `gnome-shell` | `org.gnome.desktop.notifications show-banners` off | GSettings' `changed` |
/// | `Plasma` | `Inhibited` of `org.freedesktop.Notifications` | `PropertiesChanged` |
/// | `dunst` | `paused` of `org.dunstproject.cmd0` | `PropertiesChanged` |
/// | `SwayNotificationCenter` | `GetDnd` of `org.erikreider.swaync.cc` | its `Subscribe` signal |
/// | `mako` | a mode named do-not-disturb or dnd (`ListModes`) | none: read again when asked (``refresh()``) |
///
/// Any other server, or none, reads as ``DesktopDoNotDisturb/unknown``: off.
///
/// The watcher does not follow the bus's name itself: who the server is, and its name, are the session's to know, in
/// the one order of its events (``SessionEvent/serverChanged(owner:)``, ``SessionEvent/serverReady(owner:info:)``).
/// Its owner passes them on.
///
/// ``run()`` does the following, in the task of whoever owns the watcher (a service of the daemon's group, the task
/// behind a center's stream): the watcher has no task of its own.
package final class DesktopDoNotDisturbWatcher: DesktopDoNotDisturbWatching {
    private let connection: DBusConnection
    private let settings: NotificationSettingsStore?
    private let logger: Logger
    private let state = Mutex(Followed())
    /// The servers as the owner reports them, the newest kept while ``run()`` reads the last.
    private let servers: AsyncStream<Server>
    private let serverSink: AsyncStream<Server>.Continuation

    /// The server to read, as the session reported it.
    private struct Server: Sendable {
        /// Its unique bus name; `nil` while nobody owns the name.
        var owner: String?
        /// What it answered to `GetServerInformation`; `nil` while it has not answered yet.
        var info: NotificationServerInfo?
    }

    /// What the watcher follows now, and whom it tells.
    private struct Followed {
        /// The reader of the server that owns the name now; `nil` when its switch cannot be read.
        var reader: DoNotDisturbReader?
        /// The last state told.
        var last: DesktopDoNotDisturb?
        var sinks: [Int: AsyncStream<DesktopDoNotDisturb>.Continuation] = [:]
        var nextSink = 0
    }

    /// Follows the switch of the server at `owner` on `connection`'s bus, then of each server reported to
    /// ``serverChanged(owner:info:)``.
    ///
    /// - Parameters:
    ///   - settings: the user's notification settings, through which GNOME's key is read; `nil` reads none.
    ///   - owner: the unique name of the server the session posts to now; `nil` for none.
    ///   - info: what that server answered to `GetServerInformation`; `nil` when it has not answered yet.
    package init(
        connection: DBusConnection, settings: NotificationSettingsStore?, logger: Logger, owner: String?,
        info: NotificationServerInfo?
    ) {
        self.connection = connection
        self.settings = settings
        self.logger = logger
        (servers, serverSink) = AsyncStream.makeStream(of: Server.self, bufferingPolicy: .bufferingNewest(1))
        serverSink.yield(Server(owner: owner, info: info))
    }

    /// The state once ``run()`` has read it (``DesktopDoNotDisturb/unknown`` when it cannot be), then each change,
    /// until the consuming task is cancelled or ``run()`` returns. Every stream is told of what ``refresh()`` reads.
    package func states() -> AsyncStream<DesktopDoNotDisturb> {
        let (stream, sink) = AsyncStream.makeStream(
            of: DesktopDoNotDisturb.self, bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            defer { state.nextSink += 1 }
            state.sinks[state.nextSink] = sink
            // Another stream's reading, told already: this one starts from it too.
            if let last = state.last { sink.yield(last) }
            return state.nextSink
        }
        sink.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.sinks.removeValue(forKey: key) }
        }
        return stream
    }

    /// Another server took the name (`owner`), as the session reports it, or nobody owns it (`nil`); `info` is what
    /// the server answered, `nil` while it has not: the state read from the last server is kept until it does.
    package func serverChanged(owner: String?, info: NotificationServerInfo?) {
        serverSink.yield(Server(owner: owner, info: info))
    }

    /// Reads the switch of each server reported, until the task is cancelled; then ends every stream of ``states()``.
    /// Run it once.
    package func run() async {
        await follow()
        let sinks = state.withLock { $0.sinks.values }
        for sink in sinks { sink.finish() }
    }

    /// Reads mako's modes again (the only switch that announces no change); `nil` for every other server, answered
    /// on the caller's actor without leaving it.
    package nonisolated(nonsending) func refresh() async -> DesktopDoNotDisturb? {
        guard let reader = state.withLock({ $0.reader }), let read = reader.read else { return nil }
        do {
            let now = DesktopDoNotDisturb(source: reader.source, isOn: try await read())
            tell(now)
            return now
        } catch {
            return state.withLock { $0.last } ?? .unknown
        }
    }

    /// Follows the servers reported, with one reader at a time for the newest: each reads in a child task, cancelled
    /// when another server is reported.
    private func follow() async {
        var reported = servers.makeAsyncIterator()
        guard var server = await reported.next() else { return }
        while !Task.isCancelled {
            let next = await withDiscardingTaskGroup { group in
                group.addTask { [self, server] in await read(server) }
                defer { group.cancelAll() }
                return await reported.next()
            }
            guard let next else { return }
            server = next
        }
    }

    /// Reads the switch of `server` until the task is cancelled; a server that has not answered yet leaves the last
    /// state as it was.
    private func read(_ server: Server) async {
        guard let owner = server.owner else {
            use(nil)
            return tell(.unknown)
        }
        guard let serverName = server.info?.name else {
            // Nothing read yet: off until the server answers, so that nobody waits on a first state.
            if state.withLock({ $0.last == nil }) { tell(.unknown) }
            return
        }
        guard
            let reader = DoNotDisturbReader.forServer(
                named: serverName, owner: owner, connection: connection, settings: settings)
        else {
            logger.debug(
                "the notification server has no do-not-disturb the bridge can read",
                metadata: ["server.name": "\(serverName)"])
            use(nil)
            return tell(.unknown)
        }
        use(reader)
        let hasRead = Mutex(false)
        do {
            try await reader.follow { [weak self] isOn in
                guard !Task.isCancelled else { return }
                hasRead.withLock { $0 = true }
                // Not readable yet: off, with no source, until the server answers.
                self?.tell(isOn.map { DesktopDoNotDisturb(source: reader.source, isOn: $0) } ?? .unknown)
            }
            // A reader that found nothing to read (GNOME's keys where the settings are not GNOME's).
            if !Task.isCancelled, !hasRead.withLock({ $0 }) {
                use(nil)
                tell(.unknown)
            }
        } catch {
            guard !Task.isCancelled else { return }
            logger.warning(
                "cannot read the desktop's do-not-disturb; it counts as off",
                metadata: ["server.name": "\(serverName)", "error": "\(error)"])
            tell(DesktopDoNotDisturb(source: nil, isOn: false))
        }
    }

    private func use(_ reader: DoNotDisturbReader?) {
        state.withLock { $0.reader = reader }
    }

    /// Tells every stream of a state that differs from the last one told.
    private func tell(_ now: DesktopDoNotDisturb) {
        let sinks = state.withLock { state -> [AsyncStream<DesktopDoNotDisturb>.Continuation] in
            guard state.last != now else { return [] }
            state.last = now
            return Array(state.sinks.values)
        }
        for sink in sinks { sink.yield(now) }
    }
}
