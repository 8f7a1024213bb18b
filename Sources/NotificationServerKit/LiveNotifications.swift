/// The live notifications of a server, in the order they were first shown, found by id without a search.
///
/// A test may have a server show a hundred thousand notifications and then close them all: finding each by going
/// through the whole list, and closing it by moving everything after it, made that quadratic (minutes for what the
/// daemon does in seconds). A closed notification leaves a hole here instead, and the holes are squeezed out once
/// they are half the slots, so every change costs a constant on average.
struct LiveNotifications {
    /// Each live notification at the place it was first shown; `nil` where one has closed.
    private var slots: [ServedNotification?] = []
    /// Where each live notification is in `slots`.
    private var positions: [UInt32: Int] = [:]

    /// How many are live.
    var count: Int { positions.count }

    /// The live notifications, oldest first.
    var all: [ServedNotification] { slots.compactMap { $0 } }

    /// The ids of the live notifications.
    var ids: Set<UInt32> { Set(positions.keys) }

    /// The live notification `id`, or `nil`.
    subscript(id: UInt32) -> ServedNotification? {
        positions[id].flatMap { slots[$0] }
    }

    /// Whether `id` is live.
    func contains(id: UInt32) -> Bool { positions[id] != nil }

    /// Adds `notification` as the newest; its id must not be live.
    mutating func append(_ notification: ServedNotification) {
        precondition(positions[notification.id] == nil, "notification \(notification.id) is already live")
        positions[notification.id] = slots.count
        slots.append(notification)
    }

    /// Puts `notification` in the place of the live one with its id.
    mutating func replace(_ notification: ServedNotification) {
        guard let position = positions[notification.id] else { return }
        slots[position] = notification
    }

    /// Takes the live notification `id` out, returning it; `nil` when it is not live.
    @discardableResult
    mutating func remove(id: UInt32) -> ServedNotification? {
        guard let position = positions.removeValue(forKey: id) else { return nil }
        let notification = slots[position]
        slots[position] = nil
        if positions.isEmpty {
            slots.removeAll(keepingCapacity: false)
        } else if positions.count * 2 < slots.count {
            squeeze()
        }
        return notification
    }

    /// Drops every notification.
    mutating func removeAll() {
        slots = []
        positions = [:]
    }

    /// Moves the live notifications together, in their order, and renumbers their places.
    private mutating func squeeze() {
        slots = slots.filter { $0 != nil }
        for (position, notification) in slots.enumerated() {
            if let notification { positions[notification.id] = position }
        }
    }
}
