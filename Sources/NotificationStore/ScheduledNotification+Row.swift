import FoundationEssentials
import NotificationModel
import NotificationScheduling

/// Read by hand at start-up, when thousands are read at once: the same keys as `init(from:)`, the trigger still read
/// through `Codable`.
extension ScheduledNotification: RowReadable where Payload: RowReadable & Codable {
    package init(fields: RowFields) throws {
        self.init(
            id: try fields.string(CodingKeys.id.stringValue),
            appName: try fields.optionalString(CodingKeys.appName.stringValue),
            trigger: try fields.decode(NotificationTrigger.self, CodingKeys.trigger.stringValue),
            payload: try Payload(fields: fields.fields(CodingKeys.payload.stringValue)),
            scheduledAt: Date(timeIntervalSince1970: try fields.double(CodingKeys.scheduledAt.stringValue)),
            lastFiredAt: try fields.optionalDouble(CodingKeys.lastFiredAt.stringValue)
                .map(Date.init(timeIntervalSince1970:)),
            timeZoneIdentifier: try fields.optionalString(CodingKeys.timeZoneIdentifier.stringValue)
        )
    }
}

extension ScheduledNotification where Payload: Codable {
    /// The key its payload is stored under.
    static var payloadKey: String { CodingKeys.payload.stringValue }
}
