/// A dictionary that keeps at most `capacity` keys, forgetting the oldest first: memory for things that may never be
/// asked about again (responses nobody waited for, notifications that ended).
struct RecentHistory<Value: Sendable>: Sendable {
    let capacity: Int
    private var values: [String: Value] = [:]
    private var order: [String] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(key: String) -> Value? {
        get { values[key] }
        set {
            guard let newValue else {
                if values.removeValue(forKey: key) != nil { order.removeAll { $0 == key } }
                return
            }
            if values.updateValue(newValue, forKey: key) == nil {
                order.append(key)
                if order.count > capacity { values[order.removeFirst()] = nil }
            }
        }
    }
}
