import DBusCore
import FreedesktopNotifications
import Logging
import Synchronization

/// Follows the desktop's do-not-disturb: the switch of whichever notification server owns
/// `org.freedesktop.Notifications`, read the way that server keeps it (``DoNotDisturbReader``), and read anew when
/// another server takes the name.
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
/// ``run()`` does the following, in the task of whoever owns the watcher (a service of the daemon's group, the task
/// behind a center's stream): the watcher has no task of its own.
package final class DesktopDoNotDisturbWatcher: DesktopDoNotDisturbWatching {
    private let connection: DBusConnection
    private let settings: NotificationSettingsStore?
    private let logger: Logger
    private let state = Mutex(Followed())

    /// What the watcher follows now, and whom it tells.
    private struct Followed {
        /// The reader of the server that owns the name now; `nil` when its switch cannot be read.
        var reader: DoNotDisturbReader?
        /// The last state told.
        var last: DesktopDoNotDisturb?
        var sinks: [Int: AsyncStream<DesktopDoNotDisturb>.Continuation] = [:]
        var nextSink = 0
    }

    /// Follows the switch of the server on `connection`'s bus.
    ///
    /// - Parameter settings: the user's notification settings, through which GNOME's key is read; `nil` reads none.
    package init(connection: DBusConnection, settings: NotificationSettingsStore?, logger: Logger) {
        self.connection = connection
        self.settings = settings
        self.logger = logger
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

    /// Follows the owner of `org.freedesktop.Notifications`, reading the switch of each server that owns it, until
    /// the task is cancelled or the connection closes; then ends every stream of ``states()``. Run it once.
    package func run() async {
        await follow()
        let sinks = state.withLock { $0.sinks.values }
        for sink in sinks { sink.finish() }
    }

    /// Reads mako's modes again (the only switch that announces no change); `nil` for every other server.
    package func refresh() async -> DesktopDoNotDisturb? {
        guard let reader = state.withLock({ $0.reader }), let read = reader.read else { return nil }
        do {
            let now = DesktopDoNotDisturb(source: reader.source, isOn: try await read())
            tell(now)
            return now
        } catch {
            return state.withLock { $0.last } ?? .unknown
        }
    }

    /// Follows the owner of `org.freedesktop.Notifications`, with one reader at a time for the server that owns it:
    /// each reads in a child task, cancelled when the name changes hands.
    private func follow() async {
        let name = FreedesktopNames.busName
        let owners: AsyncStream<String?>
        do {
            // Followed before the owner is asked, so that no change in between is missed.
            owners = try await connection.nameOwnerChanges(of: name)
        } catch {
            return tell(.unknown)
        }
        var changes = owners.makeAsyncIterator()
        var owner = (try? await connection.nameOwner(of: name)) ?? nil
        while !Task.isCancelled {
            let next = await withDiscardingTaskGroup { group in
                group.addTask { [self, owner] in await read(owner: owner) }
                defer { group.cancelAll() }
                return await changes.next()
            }
            guard let next else { return }
            owner = next
        }
    }

    /// Reads the switch of the server at `owner` until the task is cancelled.
    private func read(owner: String?) async {
        guard let owner else {
            use(nil)
            return tell(.unknown)
        }
        let serverName: String
        do {
            let reply = try await connection.call(
                destination: owner, path: FreedesktopNames.path, interface: FreedesktopNames.interface,
                method: FreedesktopNames.Method.getServerInformation.rawValue,
                timeout: DoNotDisturbReader.readTimeout)
            serverName = reply.first?.stringValue ?? ""
        } catch {
            guard !Task.isCancelled else { return }
            logger.debug("cannot ask the notification server who it is", metadata: ["error": "\(error)"])
            use(nil)
            return tell(.unknown)
        }
        guard !Task.isCancelled else { return }
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
