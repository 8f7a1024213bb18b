import DBusCore

/// Something that moves the wall clock under a scheduler: the system's time zone changed, or the machine woke up.
package enum SystemClockEvent: Sendable, Hashable {
    /// timedated announced a new `Timezone` (what `timedatectl set-timezone` and the desktop's settings do: they
    /// relink `/etc/localtime` through timedated). Call ``Scheduler/timeZoneChanged()``.
    case timeZoneChanged
    /// logind announced `PrepareForSleep(false)`: the machine resumed. Call ``Scheduler/resumedFromSleep()``.
    case resumedFromSleep
}

/// Follows the system bus for the events a ``Scheduler`` must hear about: timedated's `PropertiesChanged` on
/// `org.freedesktop.timedate1` and logind's `PrepareForSleep` on `org.freedesktop.login1.Manager`.
///
/// timedated is started on demand and exits when idle; the subscription is a match rule on the bus, so it holds while
/// timedated is not running and sees its signal once it is started to change the zone. A zone changed by relinking
/// `/etc/localtime` by hand announces nothing: the scheduler sees it at the next resume, where ``Scheduler`` readers
/// call ``Scheduler/timeZoneChanged()`` too (it does nothing when the zone is the same).
package enum SystemClockEvents {
    static let timedateName = "org.freedesktop.timedate1"
    static let timedatePath: DBusObjectPath = "/org/freedesktop/timedate1"
    static let logindName = "org.freedesktop.login1"
    static let logindPath: DBusObjectPath = "/org/freedesktop/login1"
    static let logindManager = "org.freedesktop.login1.Manager"

    /// Subscribes on `system` and returns the events of each source (timedated's, then logind's), each stream in the
    /// order its source sent them; the streams end when the connection closes. The two sources are unrelated, so no
    /// order between them is kept: read each in a task of the reader's own group.
    ///
    /// - Throws: `DBusFailure` when the bus refuses the match rules.
    package static func follow(on system: DBusConnection) async throws -> [AsyncStream<SystemClockEvent>] {
        let zones = try await system.signals(
            matching: DBusMatchRule(
                sender: timedateName, path: timedatePath, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged", arg0: timedateName), transform: timeZoneEvent)
        let sleeps = try await system.signals(
            matching: DBusMatchRule(
                sender: logindName, path: logindPath, interface: logindManager, member: "PrepareForSleep"),
            transform: sleepEvent)
        return [zones, sleeps]
    }

    /// `PropertiesChanged("org.freedesktop.timedate1", changed, invalidated)` naming `Timezone`.
    static func timeZoneEvent(_ signal: DBusSignal) -> SystemClockEvent? {
        guard signal.arguments.count == 3 else { return nil }
        if signal.arguments[1].stringKeyedEntries?["Timezone"] != nil { return .timeZoneChanged }
        if case .array(_, let invalidated) = signal.arguments[2], invalidated.contains(.string("Timezone")) {
            return .timeZoneChanged
        }
        return nil
    }

    /// `PrepareForSleep(false)`: the machine resumed (`true`, going to sleep, needs nothing).
    static func sleepEvent(_ signal: DBusSignal) -> SystemClockEvent? {
        guard case .boolean(false)? = signal.arguments.first else { return nil }
        return .resumedFromSleep
    }
}

extension Scheduler {
    /// Applies events from ``SystemClockEvents/follow(on:)`` until the streams end, each source's in a child task:
    /// a zone change moves wall-clock triggers; a resume delivers what came due during the sleep and re-reads the
    /// zone (it may have changed while the lid was closed, with nobody to announce it).
    package nonisolated func follow(_ sources: [AsyncStream<SystemClockEvent>]) async {
        await withDiscardingTaskGroup { group in
            for events in sources {
                group.addTask { for await event in events { await self.apply(event) } }
            }
        }
    }

    /// Applies one event of ``SystemClockEvents/follow(on:)``.
    package func apply(_ event: SystemClockEvent) {
        switch event {
        case .timeZoneChanged:
            timeZoneChanged()
        case .resumedFromSleep:
            logger.debug("resumed from sleep; delivering what came due")
            timeZoneChanged()
            resumedFromSleep()
        }
    }
}
