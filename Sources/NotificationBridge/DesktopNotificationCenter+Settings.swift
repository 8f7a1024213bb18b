import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// The user's per-app notification settings applied to what the center posts, by the same rule as the daemon's
/// (see ``AppSettingsRecord/shape(_:sessionLocked:serverName:)``).
extension DesktopNotificationCenter {
    /// What the app may do now under the user's settings: the user's choice within what the app asked for; the
    /// counterpart of `currentUserNotificationSettings`. With do-not-disturb on, the style is
    /// ``NotificationAlertStyle/none``. `nil` when the center applies no settings (see
    /// ``Configuration/settingsLocation``).
    ///
    /// - Parameter app: the name the settings go under; the configuration's desktop entry, else its app name, by
    ///   default.
    public func currentSettings(app: String? = nil) async -> AppNotificationSettings? {
        guard let settings else { return nil }
        return await settings.record(for: app ?? configuration.desktopEntry ?? configuration.appName).allowedNow
    }

    /// `content` as the user's settings let it show; the app is listed among those that posted.
    ///
    /// - Throws: ``NotificationNotAllowedError`` when nothing may be shown.
    func allowedBySettings(_ content: NotificationContent) async throws(NotificationNotAllowedError)
        -> NotificationContent
    {
        guard let settings else { return content }
        let app = content.settingsApp(fallback: configuration.appName)
        let record = await settings.record(for: app)
        let serverName = latestServerInformation.name
        do {
            return try await record.shape(content, sessionLocked: isSessionLocked) { serverName }
        } catch {
            logger.info("not shown: the user's notification settings", metadata: ["settings.app": "\(app)"])
            throw error
        }
    }

    /// Opens the settings ``Configuration/settingsLocation`` names; without them (no thread could be started) the
    /// center posts as the server's own rules allow, and says so in the log.
    static func openSettings(_ configuration: Configuration) async -> CachedSettings? {
        guard let location = configuration.settingsLocation else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let logger = configuration.logger
        do {
            return CachedSettings(
                try await NotificationSettingsStore.open(
                    location,
                    directory: configuration.settingsDirectory
                        ?? NotificationSettingsLocation.defaultDirectory(environment: environment),
                    environment: environment
                ) { logger.warning("\($0)") })
        } catch {
            logger.warning(
                "the user's notification settings cannot be followed; they are not applied",
                metadata: [
                    "error": "\(error)"
                ])
            return nil
        }
    }
}

/// The desktop's own do-not-disturb, as the app may show it (a "notifications are silenced" hint) or follow it.
extension DesktopNotificationCenter {
    /// The desktop's do-not-disturb now: GNOME's `show-banners` off, Plasma's inhibition, dunst paused, a mako mode
    /// named do-not-disturb or dnd, SwayNotificationCenter's switch; off, with an empty source, where the server has
    /// none the bridge can read. Asks the server (or the settings) once, within a few seconds, in ``run()``: off, with
    /// an empty source, once that has ended.
    public func desktopDoNotDisturb() async -> DesktopDoNotDisturbState {
        for await state in desktopDoNotDisturbChanges() { return state }
        return DesktopDoNotDisturb.unknown.reported
    }

    /// The desktop's do-not-disturb once read, then each change of it (and of the server whose switch it is), until
    /// the consuming task is cancelled or the center's ``run()`` ends. The watching is work of ``run()``: the stream
    /// says nothing until it runs, and ends at once after it has ended. The center itself posts whatever the switch
    /// says: the desktop's server decides what it shows, as it does for every app. On the portal's path, where the app
    /// does not see the server, it reads as off, with an empty source.
    public nonisolated func desktopDoNotDisturbChanges() -> AsyncStream<DesktopDoNotDisturbState> {
        let (states, continuation) = AsyncStream.makeStream(of: DesktopDoNotDisturbState.self)
        // Finished when the reader lets the stream go: the watching then ends.
        let (abandoned, abandon) = AsyncStream.makeStream(of: Never.self)
        continuation.onTermination = { _ in abandon.finish() }
        // A child of run()'s group, as all of the center's work: it ends with run() too, and after run() has ended
        // there is nothing to watch with.
        let queued = work.yield { [weak self] in
            defer { continuation.finish() }
            guard let watcher = await self?.startWatchingDoNotDisturb() else { return }
            let changes = watcher.states()
            await withDiscardingTaskGroup { group in
                group.addTask { await watcher.run() }
                group.addTask {
                    for await state in changes { continuation.yield(state.reported) }
                    abandon.finish()
                }
                for await _ in abandoned {}
                group.cancelAll()
            }
            await self?.stopWatchingDoNotDisturb(watcher)
        }
        if case .terminated = queued { continuation.finish() }
        return states
    }

    /// A watcher of the switch of the server the session posts to now, told of each server the session reports from
    /// then on, until ``stopWatchingDoNotDisturb(_:)``. Made and kept without a suspension: no event of the session
    /// is handled in between, so that none newer than what it starts from passes it by.
    private func startWatchingDoNotDisturb() -> DesktopDoNotDisturbWatcher {
        let server = session?.currentServer
        let watcher = DesktopDoNotDisturbWatcher(
            connection: connection, settings: settings?.store, logger: configuration.logger, owner: server?.owner,
            info: server?.info)
        doNotDisturbWatchers[ObjectIdentifier(watcher)] = watcher
        return watcher
    }

    private func stopWatchingDoNotDisturb(_ watcher: DesktopDoNotDisturbWatcher) {
        doNotDisturbWatchers[ObjectIdentifier(watcher)] = nil
    }
}

extension DesktopDoNotDisturb {
    /// The state as the bridge reports it to apps.
    package var reported: DesktopDoNotDisturbState {
        DesktopDoNotDisturbState(isOn: isOn, source: source?.rawValue ?? "")
    }
}
