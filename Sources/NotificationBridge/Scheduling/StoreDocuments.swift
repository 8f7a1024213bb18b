import FoundationEssentials

// The state files of older versions, which the store imports once (see NotificationStore+Import.swift), and which
// the tests write to prove it.

/// The version of the snapshot and journal formats.
let storeFormatVersion = 1

/// The snapshot file: the whole state and the sequence number of the last change it includes.
///
/// `{"version": 1, "sequence": 42, "pending": {...}, "categories": {...}, "delivered": {...}}`
struct StoreSnapshot<Payload, Category, Route> {
    var sequence: UInt64
    var state: StoredNotifications<Payload, Category, Route>
}

extension StoreSnapshot: Codable where Payload: Codable, Category: Codable, Route: Codable {
    private enum CodingKeys: String, CodingKey {
        case version
        case sequence
        case pending
        case categories
        case delivered
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try checkVersion(in: container, key: .version)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        state = StoredNotifications(
            pending: try container.decode([String: ScheduledNotification<Payload>].self, forKey: .pending),
            categories: try container.decode([String: Category].self, forKey: .categories),
            delivered: try container.decode([String: Route].self, forKey: .delivered)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeFormatVersion, forKey: .version)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(state.pending, forKey: .pending)
        try container.encode(state.categories, forKey: .categories)
        try container.encode(state.delivered, forKey: .delivered)
    }
}

/// One line of the journal: a change and its sequence number.
///
/// `{"version": 1, "sequence": 43, "schedule": {...}}`, with one of the keys `schedule` (a scheduled notification),
/// `unschedule` (an id), `register-category` (`{"id": …, "category": …}`), `remove-category` (an id), `deliver`
/// (`{"id": …, "route": …}`) or `forget-delivered` (an id).
struct JournalRecord<Payload, Category, Route> {
    var sequence: UInt64
    var change: StoreChange<Payload, Category, Route>
}

extension JournalRecord: Codable where Payload: Codable, Category: Codable, Route: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version
        case sequence
        case schedule
        case unschedule
        case registerCategory = "register-category"
        case removeCategory = "remove-category"
        case deliver
        case forgetDelivered = "forget-delivered"
    }

    private struct CategoryEntry: Codable {
        var id: String
        var category: Category
    }

    private struct RouteEntry: Codable {
        var id: String
        var route: Route
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try checkVersion(in: container, key: .version)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        if container.contains(.schedule) {
            change = .schedule(try container.decode(ScheduledNotification<Payload>.self, forKey: .schedule))
        } else if container.contains(.unschedule) {
            change = .unschedule(id: try container.decode(String.self, forKey: .unschedule))
        } else if container.contains(.registerCategory) {
            let entry = try container.decode(CategoryEntry.self, forKey: .registerCategory)
            change = .registerCategory(id: entry.id, entry.category)
        } else if container.contains(.removeCategory) {
            change = .removeCategory(id: try container.decode(String.self, forKey: .removeCategory))
        } else if container.contains(.deliver) {
            let entry = try container.decode(RouteEntry.self, forKey: .deliver)
            change = .deliver(id: entry.id, entry.route)
        } else if container.contains(.forgetDelivered) {
            change = .forgetDelivered(id: try container.decode(String.self, forKey: .forgetDelivered))
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "a record without a change")
            )
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeFormatVersion, forKey: .version)
        try container.encode(sequence, forKey: .sequence)
        switch change {
        case .schedule(let notification): try container.encode(notification, forKey: .schedule)
        case .unschedule(let id): try container.encode(id, forKey: .unschedule)
        case .registerCategory(let id, let category):
            try container.encode(CategoryEntry(id: id, category: category), forKey: .registerCategory)
        case .removeCategory(let id): try container.encode(id, forKey: .removeCategory)
        case .deliver(let id, let route): try container.encode(RouteEntry(id: id, route: route), forKey: .deliver)
        case .forgetDelivered(let id): try container.encode(id, forKey: .forgetDelivered)
        }
    }
}

/// Rejects a document of another format version, saying so.
private func checkVersion<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, key: Key) throws {
    let version = try container.decode(Int.self, forKey: key)
    guard version == storeFormatVersion else {
        throw DecodingError.dataCorruptedError(
            forKey: key,
            in: container,
            debugDescription: "version \(version) is not known to this version of notification-bridge, which reads "
                + "version \(storeFormatVersion); was it written by a newer one?"
        )
    }
}
