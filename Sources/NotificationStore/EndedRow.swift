import FoundationEssentials

/// A notification that ended, as the store keeps it in its history: the owner's value, encoded in the row form
/// (``RowFormat``) when the change is made, so that a ``StoreChange`` stays one type whatever the value is.
package struct EndedRow: Sendable, Equatable {
    /// The notification's id: a later entry of the same id replaces this one.
    package var id: String
    /// When it ended, in seconds since 1970: the history's order and its bound by age.
    package var endedAt: Double
    /// The value, in the row form.
    var body: [UInt8]

    /// Encodes `value` as the history entry of notification `id`.
    ///
    /// - Throws: ``NotificationStoreError/cannotEncode(reason:)`` when `value`'s `encode(to:)` fails.
    package init<Value: Encodable>(id: String, endedAt: Date, _ value: Value) throws(NotificationStoreError) {
        self.id = id
        self.endedAt = endedAt.timeIntervalSince1970
        do {
            body = try RowEncoder().encode(value)
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
    }
}
