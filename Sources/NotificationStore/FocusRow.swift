import FoundationEssentials

/// The owner's focus modes as the store keeps them: a value encoded in the row form (``RowFormat``) when the change is
/// made, so that a ``StoreChange`` stays one type whatever the value is. Kept on disk only, and read when asked for
/// (``NotificationStore/readFocus(_:id:)``).
package struct FocusRow: Sendable, Equatable {
    /// The key: a later row of the same key replaces this one.
    package var id: String
    /// The value, in the row form.
    var body: [UInt8]

    /// Encodes `value` as the row of `id`.
    ///
    /// - Throws: ``NotificationStoreError/cannotEncode(reason:)`` when `value`'s `encode(to:)` fails.
    package init<Value: Encodable>(id: String, _ value: Value) throws(NotificationStoreError) {
        self.id = id
        do {
            body = try RowEncoder().encode(value)
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
    }
}

extension NotificationStore {
    /// The focus row of `id`, decoded as `Value`; `nil` when there is none (a new file, or one of an older version).
    ///
    /// - Throws: ``NotificationStoreError/closed(directory:)`` after ``close()``,
    ///   ``NotificationStoreError/cannotRead(path:failure:)`` when the row or the file cannot be read.
    package func readFocus<Value: Decodable>(_ type: Value.Type, id: String) throws(NotificationStoreError) -> Value? {
        try reading { database throws in
            guard let body = try database.withFocus({ focus throws(SQLiteFailure) in try focus.body(id: id) }),
                let body
            else { return nil }
            do {
                return try Self.decodeRow(Value.self, from: body, with: RowDecoder())
            } catch {
                throw StoreDatabase.Unreadable(reason: "the row '\(id)' of the table focus: \(Self.describe(error))")
            }
        }
    }
}

extension StoreWriter {
    /// The focus row of `id`, read once everything submitted so far is written; `nil` when there is none.
    ///
    /// - Throws: ``NotificationStoreError`` when the row or the file cannot be read, or the store is closed.
    package func storedFocus<Value: Decodable>(
        _ type: Value.Type, id: String
    ) async throws(NotificationStoreError) -> Value? {
        try await writtenStore().readFocus(Value.self, id: id)
    }
}
