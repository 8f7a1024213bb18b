import FoundationEssentials

/// One row to write for a change of ``StoredNotifications``: encoded before the transaction starts, so that the
/// database's lock is never held while encoding.
enum StoreRow {
    case pending(id: String, scheduledAt: Double, body: [UInt8])
    case put(StoreDatabase.Table, id: String, body: [UInt8])
    case delete(StoreDatabase.Table, id: String)
    case ended(id: String, endedAt: Double, body: [UInt8])
    case pruneEnded(endedBefore: Double, keeping: Int)
    case focus(id: String, body: [UInt8])

    /// The rows of `changes`, in order.
    ///
    /// - Throws: ``NotificationStoreError/cannotEncode(reason:)`` when a value's `encode(to:)` fails.
    static func encode<Payload: Codable, Category: Encodable, Route: Encodable>(
        _ changes: [StoreChange<Payload, Category, Route>]
    ) throws(NotificationStoreError) -> [StoreRow] {
        let encoder = RowEncoder()
        // One pruning of the history does the work of all: entries are only added, and the last one has the latest
        // cutoff, so it drops everything the earlier ones would have. A withdrawal of thousands prunes once.
        let lastPruning = changes.lastIndex { if case .pruneEnded = $0 { true } else { false } }
        // A plain loop: this code is generic and not specialized for the store's owner, and a chain of lazy sequences
        // (or a key path) over its changes costs more in run-time type lookups than encoding a row does.
        var rows: [StoreRow] = []
        rows.reserveCapacity(changes.count)
        do {
            for index in changes.indices {
                let row: StoreRow
                switch changes[index] {
                case .schedule(let notification):
                    row = .pending(
                        id: notification.id, scheduledAt: notification.scheduledAt.timeIntervalSince1970,
                        body: try encoder.encode(notification))
                case .unschedule(let id): row = .delete(.pending, id: id)
                case .registerCategory(let id, let category):
                    row = .put(.categories, id: id, body: try encoder.encode(category))
                case .removeCategory(let id): row = .delete(.categories, id: id)
                case .deliver(let id, let route): row = .put(.delivered, id: id, body: try encoder.encode(route))
                case .forgetDelivered(let id): row = .delete(.delivered, id: id)
                case .recordEnded(let ended): row = .ended(id: ended.id, endedAt: ended.endedAt, body: ended.body)
                case .pruneEnded(let cutoff, let limit):
                    guard index == lastPruning else { continue }
                    row = .pruneEnded(endedBefore: cutoff.timeIntervalSince1970, keeping: limit)
                case .saveFocus(let focus): row = .focus(id: focus.id, body: focus.body)
                }
                rows.append(row)
            }
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
        return rows
    }

    /// Writes the row; call it inside a transaction.
    func write(to database: StoreDatabase) throws(SQLiteFailure) {
        switch self {
        case .pending(let id, let scheduledAt, let body):
            try database.putPending(id: id, scheduledAt: scheduledAt, body: body)
        case .put(let table, let id, let body): try database.put(table, id: id, body: body)
        case .delete(let table, let id): try database.delete(table, id: id)
        case .ended(let id, let endedAt, let body): try database.history?.put(id: id, endedAt: endedAt, body: body)
        case .pruneEnded(let cutoff, let limit): try database.history?.prune(endedBefore: cutoff, keeping: limit)
        case .focus(let id, let body): try database.focus?.put(id: id, body: body)
        }
    }
}
