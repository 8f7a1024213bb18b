import FoundationEssentials
import NotificationScheduling

/// Reading single scheduled notifications back, for an owner that keeps only part of each in memory.
extension NotificationStore {
    /// The row of the scheduled notification `id`, read as `Value`: the whole ``ScheduledNotification``, or a type that
    /// reads only the keys it needs (the row's form lets a reader skip the others without reading them).
    ///
    /// Reads what is in the database: a change still on its way to `apply(_:)` is not there yet.
    ///
    /// - Returns: `nil` when no scheduled notification has that id.
    /// - Throws: ``NotificationStoreError/closed(directory:)`` after ``close()``,
    ///   ``NotificationStoreError/cannotRead(path:failure:)`` when the row or the file cannot be read as `Value`.
    package func readPending<Value: Decodable>(
        _ type: Value.Type, id: String
    ) throws(NotificationStoreError) -> Value? {
        try reading { database throws in
            guard let body = try database.pendingBody(id: id) else { return nil }
            do {
                return try Self.decodeRow(Value.self, from: body, with: RowDecoder())
            } catch {
                throw StoreDatabase.Unreadable(reason: "the row '\(id)' of the table pending: \(Self.describe(error))")
            }
        }
    }

    /// The bytes of the value at `path` in the payload of every scheduled notification's row, by id, in one pass over
    /// the table: a value the owner keeps ready to use (a ``RowBytes``), read without decoding anything else of the
    /// rows. `path` names a key of the payload's keyed container, then a key of that key's value, and so on (see
    /// ``RowFormat/valueRange(at:in:)``).
    ///
    /// - Returns: By id, the bytes, or `nil` for a row without that value (one whose payload never had it, or a
    ///   damaged one): decode that row whole with ``readPending(_:id:)`` instead.
    /// - Throws: As ``readPending(_:id:)``, for the file.
    package func readPendingBytes(inPayloadAt path: [String]) throws(NotificationStoreError) -> [String: RowBytes?] {
        let path = [ScheduledNotification<Payload>.payloadKey] + path
        return try reading { database throws in
            var values: [String: RowBytes?] = [:]
            try database.forEachRow(of: .pending) { id, body in
                values[id] = .some(RowFormat.valueRange(at: path, in: body).map { RowBytes(Array(body[$0])) })
            }
            return values
        }
    }

    /// Runs `body` on the open database under the store's lock, turning its failures into the store's errors.
    func reading<Answer>(_ body: (StoreDatabase) throws -> Answer) throws(NotificationStoreError) -> Answer {
        try inner.withLock { inner throws(NotificationStoreError) in
            guard let database = inner.database else { throw .closed(directory: directory) }
            do {
                return try body(database)
            } catch let failure as SQLiteFailure {
                throw .cannotRead(path: databasePath, failure: failure)
            } catch {
                let reason = (error as? StoreDatabase.Unreadable)?.reason ?? "\(error)"
                throw .cannotRead(
                    path: databasePath,
                    failure: SQLiteFailure(code: .corrupt, message: reason, operation: "reading the state"))
            }
        }
    }

    /// The value of one row's `body`, in the row format (``RowFormat``).
    ///
    /// - Throws: `DecodingError` for a row of another format version, or one that does not hold a `Value`.
    static func decodeRow<Value: Decodable>(
        _ type: Value.Type, from body: [UInt8], with decoder: RowDecoder
    ) throws -> Value {
        try decoder.decode(Value.self, from: body)
    }
}

/// The payload of a scheduled notification's row, read without the rest of the row.
package struct PayloadOfRow<Payload: Decodable>: Decodable {
    /// The payload.
    package let payload: Payload
}
