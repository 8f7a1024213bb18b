import FoundationEssentials

/// Pending entries ordered by fire date: an indexed binary min-heap.
///
/// Insert, removal by id and popping the earliest entry are O(log n); ``peek()`` and lookups by id are O(1).
/// Entries with the same fire date come out in the order they were inserted, so the order is deterministic.
/// Inserting an id that is already present replaces that entry (and its place in the order).
package struct ScheduleQueue<Value> {
    /// One pending entry.
    package struct Entry {
        /// The entry's id, unique in the queue.
        package let id: String
        /// When the entry is due.
        package let fireDate: Date
        /// What the caller stored with it. The heap moves entries at every insertion and removal: a value of a few
        /// words (one reference, as ``ScheduledNotification`` is) keeps that quick with thousands pending.
        package let value: Value
        /// Insertion order, to break ties between equal fire dates.
        fileprivate let sequence: UInt64

        fileprivate init(id: String, fireDate: Date, value: Value, sequence: UInt64) {
            self.id = id
            self.fireDate = fireDate
            self.value = value
            self.sequence = sequence
        }

        fileprivate func precedes(_ other: Entry) -> Bool {
            (fireDate, sequence) < (other.fireDate, other.sequence)
        }
    }

    private var heap: [Entry] = []
    private var positions: [String: Int] = [:]
    private var nextSequence: UInt64 = 0

    /// Makes an empty queue.
    package init() {}

    /// The number of entries.
    package var count: Int { heap.count }

    /// Whether the queue has no entries.
    package var isEmpty: Bool { heap.isEmpty }

    /// The entry with the earliest fire date, without removing it.
    package func peek() -> Entry? { heap.first }

    /// The entry with `id`, if present.
    package subscript(id: String) -> Entry? {
        positions[id].map { heap[$0] }
    }

    /// Whether an entry has `id`.
    package func contains(id: String) -> Bool { positions[id] != nil }

    /// The entries in no particular order (cheap: no sorting).
    package var unorderedEntries: [Entry] { heap }

    /// The entries from the earliest fire date to the latest (O(n log n)).
    package func sortedEntries() -> [Entry] {
        heap.sorted { $0.precedes($1) }
    }

    /// Makes room for `count` entries in all, so that adding thousands at once does not grow the queue step by step.
    ///
    /// Room is added at least by doubling, as appending does: a queue asked for one more entry at a time (one
    /// notification scheduled after another) is then not copied whole each time.
    package mutating func reserveCapacity(_ count: Int) {
        if count > heap.capacity { heap.reserveCapacity(Swift.max(count, 2 * heap.capacity)) }
        if count > positions.capacity { positions.reserveCapacity(Swift.max(count, 2 * positions.capacity)) }
    }

    /// Adds an entry, replacing any entry with the same id.
    ///
    /// - Returns: The replaced entry, if there was one.
    @discardableResult
    package mutating func insert(id: String, fireDate: Date, value: Value) -> Entry? {
        let replaced = remove(id: id)
        let entry = Entry(id: id, fireDate: fireDate, value: value, sequence: nextSequence)
        nextSequence += 1
        heap.append(entry)
        positions[id] = heap.count - 1
        siftUp(from: heap.count - 1)
        return replaced
    }

    /// Adds and removes entries in order, as ``insert(id:fireDate:value:)`` and ``remove(id:)`` one after the other
    /// would, but puts the heap in order once at the end: O(n + k) for k changes, where one by one is O(k log n). For
    /// thousands at once, as at start-up; a few are made one by one.
    ///
    /// - Parameter changes: For each id, its new fire date and value, or `nil` to remove it.
    package mutating func apply(_ changes: [(id: String, entry: (fireDate: Date, value: Value)?)]) {
        guard changes.count >= 64, changes.count >= heap.count / 8 else {
            for (id, entry) in changes {
                if let entry { insert(id: id, fireDate: entry.fireDate, value: entry.value) } else { remove(id: id) }
            }
            return
        }
        reserveCapacity(heap.count + changes.count)
        for (id, change) in changes {
            let index = positions[id]
            guard let change else {
                if let index { removeUnordered(at: index) }
                continue
            }
            // A later sequence than any before, as for an insertion: the order is the same as one by one.
            let entry = Entry(id: id, fireDate: change.fireDate, value: change.value, sequence: nextSequence)
            nextSequence += 1
            if let index {
                heap[index] = entry
            } else {
                positions[id] = heap.count
                heap.append(entry)
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    /// Removes the entry at `index`, moving the last one there, without restoring the heap's order.
    private mutating func removeUnordered(at index: Int) {
        positions[heap[index].id] = nil
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.id] = index
        }
    }

    /// Removes the entry with `id`.
    ///
    /// - Returns: The removed entry, or `nil` when there was none.
    @discardableResult
    package mutating func remove(id: String) -> Entry? {
        guard let index = positions[id] else { return nil }
        return remove(at: index)
    }

    /// Removes and returns the entry with the earliest fire date.
    package mutating func popFirst() -> Entry? {
        heap.isEmpty ? nil : remove(at: 0)
    }

    /// Removes and returns every entry whose fire date is at or before `now`, earliest first.
    package mutating func popDue(now: Date) -> [Entry] {
        var due: [Entry] = []
        while let first = heap.first, first.fireDate <= now {
            due.append(remove(at: 0))
        }
        return due
    }

    /// Removes every entry for which `shouldRemove` returns `true` (O(n + k log n) for k removals).
    ///
    /// - Returns: The removed entries, earliest first.
    @discardableResult
    package mutating func removeAll(where shouldRemove: (Entry) throws -> Bool) rethrows -> [Entry] {
        let ids = try heap.filter(shouldRemove).map(\.id)
        return ids.compactMap { remove(id: $0) }.sorted { $0.precedes($1) }
    }

    /// How many entries fit before the queue must grow; for tests.
    var capacity: Int { heap.capacity }

    /// Whether the heap order and the id index agree with each other; for tests.
    func checkInvariants() -> Bool {
        guard positions.count == heap.count else { return false }
        for (index, entry) in heap.enumerated() {
            guard positions[entry.id] == index else { return false }
            if index > 0, entry.precedes(heap[(index - 1) / 2]) { return false }
        }
        return true
    }

    private mutating func remove(at index: Int) -> Entry {
        let removed = heap[index]
        positions[removed.id] = nil
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.id] = index
            // The moved entry may belong above or below its new place; at most one of these moves it.
            siftDown(from: siftUp(from: index))
        }
        shrinkIfSparse()
        return removed
    }

    /// The capacity below which storage is never given back: a few hundred kilobytes at most.
    private static var keptCapacity: Int { 4_096 }

    /// Gives storage back once under a quarter of it is used, after a large withdrawal: the queue's arrays never
    /// shrink by themselves. Each shrink copies what is left, and the next needs the queue to lose three quarters
    /// again, so removals stay O(log n) on average.
    private mutating func shrinkIfSparse() {
        guard heap.capacity > Self.keptCapacity, heap.count * 4 < heap.capacity else { return }
        var smaller: [Entry] = []
        smaller.reserveCapacity(heap.count)
        smaller.append(contentsOf: heap)
        heap = smaller
        positions = Dictionary(uniqueKeysWithValues: positions.lazy.map { ($0.key, $0.value) })
    }

    /// Moves the entry at `index` up while it precedes its parent; returns where it ends up.
    @discardableResult
    private mutating func siftUp(from index: Int) -> Int {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            swapAt(child, parent)
            child = parent
        }
        return child
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { return }
            swapAt(parent, first)
            parent = first
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].id] = a
        positions[heap[b].id] = b
    }
}

extension ScheduleQueue: Sendable where Value: Sendable {}
extension ScheduleQueue.Entry: Sendable where Value: Sendable {}
extension ScheduleQueue.Entry: Equatable where Value: Equatable {
    package static func == (left: Self, right: Self) -> Bool {
        left.id == right.id && left.fireDate == right.fireDate && left.sequence == right.sequence
            && left.value == right.value
    }
}
