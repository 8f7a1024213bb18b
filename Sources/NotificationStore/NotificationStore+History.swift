/// Reading the history of ended notifications back (see ``StoreChange/recordEnded(_:)``). It is never read whole at
/// the start: it stays on disk, and is read when asked for.
extension NotificationStore {
    /// Every history entry, newest first, decoded as `Value`; entries that cannot be decoded (damaged, or of a newer
    /// version) are left out, so that one bad entry does not hide the others.
    ///
    /// - Throws: ``NotificationStoreError/closed(directory:)`` after ``close()``,
    ///   ``NotificationStoreError/cannotRead(path:failure:)`` when the file cannot be read.
    package func readHistory<Value: Decodable>(_ type: Value.Type) throws(NotificationStoreError) -> [Value] {
        try reading { database throws in
            let rows = try database.withHistory { history throws(SQLiteFailure) in try history.rows() } ?? []
            let decoder = RowDecoder()
            return rows.compactMap { try? Self.decodeRow(Value.self, from: $0.body, with: decoder) }
        }
    }

    /// The history entry of notification `id`, decoded as `Value`; `nil` when there is none.
    ///
    /// - Throws: As ``readHistory(_:)``, and ``NotificationStoreError/cannotRead(path:failure:)`` when the entry
    ///   cannot be decoded.
    package func readHistoryEntry<Value: Decodable>(
        _ type: Value.Type, id: String
    ) throws(NotificationStoreError) -> Value? {
        try reading { database throws in
            guard let body = try database.withHistory({ history throws(SQLiteFailure) in try history.body(id: id) }),
                let body
            else { return nil }
            do {
                return try Self.decodeRow(Value.self, from: body, with: RowDecoder())
            } catch {
                throw StoreDatabase.Unreadable(reason: "the row '\(id)' of the table history: \(Self.describe(error))")
            }
        }
    }
}

extension StoreWriter {
    /// Every history entry, newest first, read once everything submitted so far is written (see
    /// ``NotificationStore/readHistory(_:)``).
    ///
    /// - Throws: ``NotificationStoreError`` when the file cannot be read, or the store is closed.
    package func storedHistory<Value: Decodable>(_ type: Value.Type) async throws(NotificationStoreError) -> [Value] {
        try await writtenStore().readHistory(Value.self)
    }

    /// The history entry of notification `id`, read once everything submitted so far is written; `nil` when there is
    /// none.
    ///
    /// - Throws: ``NotificationStoreError`` when the entry or the file cannot be read, or the store is closed.
    package func storedHistoryEntry<Value: Decodable>(
        _ type: Value.Type, id: String
    ) async throws(NotificationStoreError) -> Value? {
        try await writtenStore().readHistoryEntry(Value.self, id: id)
    }
}
