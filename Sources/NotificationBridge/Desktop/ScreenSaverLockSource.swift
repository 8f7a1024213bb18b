import DBusCore

/// The screen saver on the session bus: `GetActive()` and the `ActiveChanged(b)` signal, for sessions where logind
/// cannot tell (no logind, no session, a locker that never sets `LockedHint`).
enum ScreenSaverLockSource {
    /// Where a screen saver may answer, in the order tried: the freedesktop name at its two customary paths (KDE
    /// serves both), then GNOME's own.
    static let candidates: [(busName: String, path: DBusObjectPath, interface: String)] = [
        ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver"),
        ("org.freedesktop.ScreenSaver", "/ScreenSaver", "org.freedesktop.ScreenSaver"),
        ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver"),
    ]

    /// Connects to the first candidate that answers `GetActive`, or returns `nil` when none does.
    ///
    /// Names without an owner are skipped rather than called, so that asking never starts a screen saver through
    /// D-Bus activation.
    static func open(on session: DBusConnection, timeout: Duration) async -> LockSource? {
        for candidate in candidates {
            guard (try? await session.nameHasOwner(candidate.busName)) == true else { continue }
            let read: @Sendable () async throws -> Bool = {
                let reply = try await session.call(
                    destination: candidate.busName, path: candidate.path, interface: candidate.interface,
                    method: "GetActive", timeout: timeout)
                return try reply.decode(Bool.self)
            }
            guard (try? await read()) != nil else { continue }
            do {
                // Any path: screen savers differ in which object emits the signal.
                let signals = try await session.signals(
                    matching: DBusMatchRule(
                        sender: candidate.busName, interface: candidate.interface, member: "ActiveChanged"))
                let owners = try await session.nameOwnerChanges(of: candidate.busName)
                let initial = try await read()
                return LockSource(
                    busName: candidate.busName, initial: initial, read: read, signals: signals, ownerChanges: owners,
                    interpret: interpret)
            } catch {
                continue
            }
        }
        return nil
    }

    /// `ActiveChanged(b active)`.
    static func interpret(_ signal: DBusSignal) -> LockSource.Change {
        guard signal.member == "ActiveChanged", case .boolean(let active)? = signal.arguments.first else {
            return .unrelated
        }
        return .locked(active)
    }
}
