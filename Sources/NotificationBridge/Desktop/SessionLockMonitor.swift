import DBusCore

/// Tells whether the user's session is locked, and when it unlocks.
///
/// It asks, in order: logind on the system bus (the session's `LockedHint`), then the screen saver on the session bus
/// (`org.freedesktop.ScreenSaver`, or GNOME's, `GetActive`/`ActiveChanged`). The first that answers is followed for
/// the monitor's lifetime; if none answers, the session counts as never locked. If the chosen source goes away (its
/// bus name loses its owner, or the connection closes), the session counts as unlocked until it answers again, so
/// that nothing waits forever for an unlock nobody can report.
///
/// All members may be used from any task. The state is kept by ``run()``, which follows the source's signals in order:
/// its owner runs it as a child of its own task group (the daemon's service group, the center's), so the monitor has no
/// task of its own and follows the source exactly as long as that group runs it.
package final class SessionLockMonitor: Sendable {
    /// Where the lock state comes from (shown by the daemon's `GetServerInformation`).
    package enum Source: String, Sendable, Hashable, CustomStringConvertible {
        /// logind's `LockedHint` on the system bus.
        case logind
        /// A screen saver's `GetActive`/`ActiveChanged` on the session bus.
        case screenSaver = "screensaver"
        /// Nothing answered: the session is taken as never locked.
        case none

        /// The name shown to users: `logind`, `screensaver` or `none`.
        package var description: String { rawValue }
    }

    /// The source chosen when the monitor started.
    package let source: Source
    private let cell: LockStateCell
    private let followed: LockSource?

    private init(source: Source, cell: LockStateCell, followed: LockSource?) {
        self.source = source
        self.cell = cell
        self.followed = followed
    }

    /// Finds a source of the lock state and reads it; ``run()`` follows it from then on. Never fails: with no source,
    /// the monitor reports an unlocked session.
    ///
    /// - Parameters:
    ///   - system: a system bus connection, or `nil` to skip logind (no system bus, or a test).
    ///   - session: a session bus connection, for the screen saver.
    ///   - timeout: how long each source may take to answer while probing.
    package static func find(
        system: DBusConnection?, session: DBusConnection, timeout: Duration = .seconds(3)
    ) async -> SessionLockMonitor {
        let found: (Source, LockSource)?
        if let system, let logind = await LogindLockSource.open(on: system, timeout: timeout) {
            found = (.logind, logind)
        } else if let screenSaver = await ScreenSaverLockSource.open(on: session, timeout: timeout) {
            found = (.screenSaver, screenSaver)
        } else {
            found = nil
        }
        guard let (source, lockSource) = found else {
            return SessionLockMonitor(source: .none, cell: LockStateCell(locked: false), followed: nil)
        }
        return SessionLockMonitor(source: source, cell: LockStateCell(locked: lockSource.initial), followed: lockSource)
    }

    /// Follows the source's changes until its connection closes or the task is cancelled; returns at once when there
    /// is no source. The signals that arrive before it runs are kept and read in order, so none is missed. Run it
    /// once. Once it returns without being cancelled, the session counts as unlocked (nobody can report an unlock).
    package func run() async {
        await followed?.follow(into: cell)
    }

    /// Whether the session is locked now.
    package var isLocked: Bool {
        get async { cell.isLocked }
    }

    /// The same, read without suspending (for actors that must decide without giving up their turn).
    package var isLockedNow: Bool { cell.isLocked }

    /// Returns once the session is unlocked: at once when it is not locked, else right after the unlock is reported.
    /// Returns early, without throwing, when the task is cancelled.
    package func waitUntilUnlocked() async {
        await cell.wait(untilLocked: false)
    }

    /// Returns once the session is in the state `locked` (or the task is cancelled).
    func wait(untilLocked locked: Bool) async {
        await cell.wait(untilLocked: locked)
    }
}
