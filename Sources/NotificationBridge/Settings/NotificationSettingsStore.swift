import NotificationBridgeAPI
import NotificationModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The user's notification settings for every app, and the global do-not-disturb: read, written and followed live
/// in GNOME's keys (see ``GNOMENotificationKeys``) or in the bridge's own file (see ``SettingsKeyFile``).
///
/// Under GNOME, the keys GNOME has (allowed, style, sound, lock screen, do-not-disturb) are GNOME's, so that GNOME's
/// Settings app and the bridge agree; the badge, whether time-sensitive notifications go through do-not-disturb
/// (GNOME has no such key), snooze and what each app asked for are kept in the bridge's file. Elsewhere the file holds
/// everything. All members may be used from any task: the GIO objects live on one thread of their own.
package final class NotificationSettingsStore: Sendable {
    /// Where the settings are kept.
    package let source: SettingsSource
    /// The bridge's own file.
    package let filePath: String
    /// Each change made by someone else or through this store: the app whose settings changed, or `nil` for the
    /// global ones. A change may be reported more than once.
    package let changes: AsyncStream<String?>
    private let sink: AsyncStream<String?>.Continuation
    let thread: GLibLoopThread
    let backends: Backends
    /// Those following the global settings (``globalChanges()``).
    private let globalFollowers: Followers
    /// Those following the focus modes the file defines (``focusChanges()``).
    let focusFollowers: Followers

    /// Opens the settings in `location`, with the bridge's file in `directory`.
    ///
    /// - Parameter warn: receives a message for each entry of the file that cannot be read (it is ignored), from the
    ///   store's own thread.
    /// - Throws: ``SettingsStoreError`` when no thread can be started.
    package static func open(
        _ location: NotificationSettingsLocation, directory: String, environment: [String: String],
        warn: @escaping @Sendable (String) -> Void
    ) async throws -> NotificationSettingsStore {
        guard let thread = GLibLoopThread() else {
            throw SettingsStoreError(
                kind: .cannotWrite, description: "cannot start a thread to follow the notification settings")
        }
        let storage: GSettingsStorage?
        switch location {
        case .file: storage = nil
        case .gnome(let chosen): storage = chosen
        case .automatic:
            storage = NotificationSettingsLocation.isGNOME(environment: environment) ? .standard : nil
        }
        let (changes, sink) = AsyncStream<String?>.makeStream()
        let followers = Followers()
        let focusFollowers = Followers()
        let path = directory + "/settings.ini"
        let backends = await thread.perform { () -> Backends in
            let file = SettingsKeyFile(
                path: path,
                changed: { before, after in
                    if before.doNotDisturb != after.doNotDisturb {
                        sink.yield(nil)
                        followers.notify()
                    }
                    for app in Set(before.apps.keys).union(after.apps.keys) where before.apps[app] != after.apps[app] {
                        sink.yield(app)
                    }
                    if before.focusModes != after.focusModes { focusFollowers.notify() }
                }, warn: warn)
            let gnome = storage.flatMap { storage in
                GNOMENotificationKeys.isInstalled
                    ? GNOMENotificationKeys(backend: storage) { app in
                        sink.yield(app)
                        if app == nil { followers.notify() }
                    } : nil
            }
            return Backends(file: file, gnome: gnome)
        }
        return NotificationSettingsStore(
            source: backends.gnome == nil ? .file : .gnome, filePath: path, changes: changes, sink: sink,
            thread: thread, backends: backends, followers: followers, focusFollowers: focusFollowers)
    }

    private init(
        source: SettingsSource, filePath: String, changes: AsyncStream<String?>,
        sink: AsyncStream<String?>.Continuation, thread: GLibLoopThread, backends: Backends,
        followers: Followers, focusFollowers: Followers
    ) {
        globalFollowers = followers
        self.focusFollowers = focusFollowers
        self.source = source
        self.filePath = filePath
        self.changes = changes
        self.sink = sink
        self.thread = thread
        self.backends = backends
    }

    /// Stops following the settings and ends ``changes``.
    package func close() async {
        let backends = self.backends
        await thread.stop {
            backends.file.close()
            backends.gnome?.close()
        }
        sink.finish()
        globalFollowers.finish()
        focusFollowers.finish()
    }

    /// Each change of the global settings (GNOME's global keys, or the file's do-not-disturb), from now until the
    /// consuming task ends or the store closes; any number of followers may each have one.
    package func globalChanges() -> AsyncStream<Void> {
        globalFollowers.add()
    }

    /// GNOME's do-not-disturb (`show-banners` off), read on the store's thread; `nil` when the settings are not
    /// GNOME's.
    package func gnomeDoNotDisturb() async -> Bool? {
        let backends = self.backends
        return await thread.perform { backends.gnome?.doNotDisturb }
    }

    /// The settings of `app`: its desktop id, or the app name it posts under.
    package func record(for app: String) async -> AppSettingsRecord {
        let backends = self.backends
        let source = self.source
        return await thread.perform { backends.record(for: app, source: source) }
    }

    /// The settings of every app that posted or has settings, sorted by app.
    package func records() async -> [AppSettingsRecord] {
        let backends = self.backends
        let source = self.source
        return await thread.perform {
            var apps = Set(backends.file.contents.apps.keys)
            if let gnome = backends.gnome { apps.formUnion(gnome.apps) }
            return apps.sorted().map { backends.record(for: $0, source: source) }
        }
    }

    /// Changes the settings of `app` (`nil`: only the global ``SettingsChange/doNotDisturb``) and reports the change
    /// on ``changes``.
    ///
    /// - Throws: ``SettingsStoreError`` when the app's name cannot be kept, or the file cannot be written.
    package func apply(_ change: SettingsChange, to app: String?) async throws(SettingsStoreError) {
        if let app { try Self.checkStorable(app) }
        let backends = self.backends
        let problem = await thread.perform { () -> String? in
            var fileChange = change
            if let gnome = backends.gnome {
                if let app { gnome.apply(change, to: app) }
                if let doNotDisturb = change.doNotDisturb { gnome.doNotDisturb = doNotDisturb }
                // What GNOME keeps is not also written to the file, so that the two cannot disagree.
                fileChange = SettingsChange()
                fileChange.showsBadge = change.showsBadge
                fileChange.allowsTimeSensitive = change.allowsTimeSensitive
                fileChange.allowsSnooze = change.allowsSnooze
                fileChange.allowsCritical = change.allowsCritical
                fileChange.floodLimit = change.floodLimit
                fileChange.requested = change.requested
            }
            return backends.file.write { contents in
                if backends.gnome == nil, let doNotDisturb = change.doNotDisturb {
                    contents.doNotDisturb = doNotDisturb
                }
                if let app { contents.apps[app, default: StoredAppSettings()].apply(fileChange) }
            }
        }
        if let problem {
            throw SettingsStoreError(
                kind: .cannotWrite,
                description: "cannot write \(filePath) (\(problem)); check that its folder can be written")
        }
        if let app { sink.yield(app) }
        if change.doNotDisturb != nil {
            sink.yield(nil)
            globalFollowers.notify()
        }
    }

    /// Lists `app` among the apps that posted, once (nothing is written when it is listed already). Its settings do
    /// not change, so nothing is reported on ``changes``.
    package func note(_ app: String) async {
        guard (try? Self.checkStorable(app)) != nil else { return }
        let backends = self.backends
        await thread.perform {
            backends.gnome?.note(app)
            guard backends.file.contents.apps[app] == nil else { return }
            // The file is read again before the write: an edit by hand not yet reported may have listed the app.
            _ = backends.file.write { contents in
                if contents.apps[app] == nil { contents.apps[app] = StoredAppSettings() }
            }
        }
    }

    /// App names a key file group can hold: not empty, no brackets, no control characters.
    private static func checkStorable(_ app: String) throws(SettingsStoreError) {
        guard !app.isEmpty, !app.unicodeScalars.contains(where: { $0 == "[" || $0 == "]" || $0.value < 0x20 })
        else {
            throw SettingsStoreError(
                kind: .invalidApp,
                description: "app \(quotedForMessage(app)) cannot have settings: name it by its desktop id or app "
                    + "name, without brackets or control characters")
        }
    }

    /// The streams of ``globalChanges()`` or of ``focusChanges()``, each told of every change until its follower ends.
    final class Followers: Sendable {
        private let streams = Mutex<(next: Int, sinks: [Int: AsyncStream<Void>.Continuation], finished: Bool)>(
            (0, [:], false))

        func add() -> AsyncStream<Void> {
            let (stream, sink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let key = streams.withLock { streams -> Int? in
                guard !streams.finished else { return nil }
                defer { streams.next += 1 }
                streams.sinks[streams.next] = sink
                return streams.next
            }
            guard let key else {
                sink.finish()
                return stream
            }
            sink.onTermination = { [weak self] _ in self?.streams.withLock { _ = $0.sinks.removeValue(forKey: key) } }
            return stream
        }

        func notify() {
            for sink in streams.withLock({ Array($0.sinks.values) }) { sink.yield() }
        }

        func finish() {
            let sinks = streams.withLock { streams in
                streams.finished = true
                defer { streams.sinks = [:] }
                return Array(streams.sinks.values)
            }
            for sink in sinks { sink.finish() }
        }
    }

    /// The two places, used only on the store's thread.
    final class Backends: @unchecked Sendable {
        let file: SettingsKeyFile
        let gnome: GNOMENotificationKeys?

        init(file: SettingsKeyFile, gnome: GNOMENotificationKeys?) {
            self.file = file
            self.gnome = gnome
        }

        func record(for app: String, source: SettingsSource) -> AppSettingsRecord {
            let stored = file.contents.apps[app] ?? StoredAppSettings()
            var settings = stored.settings
            var doNotDisturb = file.contents.doNotDisturb ?? false
            if let gnome {
                let kept = settings
                settings = gnome.settings(of: app)
                settings.showsBadge = kept.showsBadge
                settings.allowsTimeSensitive = kept.allowsTimeSensitive
                settings.allowsSnooze = kept.allowsSnooze
                settings.allowsCritical = kept.allowsCritical
                settings.floodLimit = kept.floodLimit
                doNotDisturb = gnome.doNotDisturb
            }
            var record = AppSettingsRecord(
                app: app, settings: settings, requested: stored.requested, doNotDisturb: doNotDisturb,
                source: source)
            record.isStyleChosen = gnome == nil && stored.style != nil
            return record
        }
    }
}
