import DBusCore

/// One way of knowing whether the session is locked, once connected: how to read the state, and the signals that
/// announce changes.
struct LockSource: Sendable {
    /// What a received signal says about the state.
    enum Change: Sendable, Equatable {
        /// The state is now this.
        case locked(Bool)
        /// The state changed without its value (an invalidated property): read it again.
        case reread
        /// Nothing about the lock.
        case unrelated
    }

    /// The bus name that answers; when it loses its owner nobody can tell the lock any longer.
    let busName: String
    /// The state read when the source was chosen.
    let initial: Bool
    /// Reads the current state.
    let read: @Sendable () async throws -> Bool
    /// The source's signals, subscribed before ``initial`` was read so none is missed.
    let signals: AsyncStream<DBusSignal>
    /// Owners of ``busName`` from subscription on.
    let ownerChanges: AsyncStream<String?>
    /// What a signal means.
    let interpret: @Sendable (DBusSignal) -> Change

    /// Follows the source into `cell` until the signal stream ends (the connection closed) or the task is cancelled.
    ///
    /// When the source goes away (its name loses its owner, or the connection closes) the session counts as unlocked:
    /// held responses must not wait for an unlock nobody can report. A new owner is asked for the state again.
    func follow(into cell: LockStateCell) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    switch interpret(signal) {
                    case .locked(let locked): cell.set(locked)
                    case .reread: cell.set(await readOrUnlocked())
                    case .unrelated: break
                    }
                }
            }
            group.addTask {
                for await owner in ownerChanges {
                    cell.set(owner == nil ? false : await readOrUnlocked())
                }
            }
            await group.next()
            group.cancelAll()
        }
        if !Task.isCancelled { cell.set(false) }
    }

    private func readOrUnlocked() async -> Bool {
        (try? await read()) ?? false
    }
}
