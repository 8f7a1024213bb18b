/// The ids of the notifications the daemon's table let go of, the most recent ``capacity`` of them: a call that names
/// one learns that the notification ended too long ago to be kept (`Error.Expired`), not that the id is wrong.
///
/// Ids are kept as 64-bit numbers (an id is 16 hexadecimal digits), in a ring with a set beside it: at most a few
/// hundred kilobytes, and nothing until the table first lets an entry go.
struct ForgottenIDs: Sendable {
    /// How many ids are remembered by default: sixteen times what the table keeps of ended notifications.
    static let defaultCapacity = 16 * NotificationTable.finishedCapacity

    let capacity: Int
    /// The ids, in the order they were forgotten, as a ring once full.
    private var ring: [UInt64] = []
    /// Where the next id goes in ``ring`` once it is full.
    private var next = 0
    private var members: Set<UInt64> = []

    init(capacity: Int = Self.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// How many ids are remembered.
    var count: Int { ring.count }

    /// Remembers `id`; the oldest remembered is dropped beyond ``capacity``.
    mutating func insert(_ id: String) {
        let key = Self.key(id)
        guard members.insert(key).inserted else { return }
        if ring.count < capacity {
            ring.append(key)
            return
        }
        members.remove(ring[next])
        ring[next] = key
        next = (next + 1) % capacity
    }

    /// Forgets `id` again: it names a notification once more (a `replaces` of it, say, never does; this is for an
    /// entry added back under the same id).
    mutating func remove(_ id: String) {
        // Left in the ring: a stale slot only makes room sooner.
        members.remove(Self.key(id))
    }

    /// Whether `id` was let go of (and is among the last ``capacity``).
    func contains(_ id: String) -> Bool {
        members.contains(Self.key(id))
    }

    private static func key(_ id: String) -> UInt64 {
        UInt64(id, radix: 16) ?? UInt64(bitPattern: Int64(id.hashValue))
    }
}
