import FoundationEssentials
import NotificationModel

/// A notification waiting for its trigger, with what the scheduler needs to know about its progress.
///
/// `Payload` is what the owner wants back when the notification fires: the content and where responses go, for the
/// daemon. The value is what the store keeps, so it is `Codable` when the payload is: the daemon writes it to disk
/// on every change (scheduled, fired, withdrawn) and gives it back to ``Scheduler/restore(_:)`` at start-up.
///
/// Encoded with the keys `id`, `app-name`, `trigger`, `payload`, `scheduled-at` and `last-fired-at` (seconds since
/// 1970-01-01T00:00:00Z), and `time-zone` (an IANA zone name).
package struct ScheduledNotification<Payload> {
    /// The stored parts, out of line in one object: the store, the scheduler and the daemon copy a notification as
    /// they restore, queue, list and fire it, and with thousands pending a copy must cost one reference, not one for
    /// each string of the notification. Never changed: a change replaces it.
    @usableFromInline
    final class Parts {
        @usableFromInline let id: String
        @usableFromInline let appName: String?
        @usableFromInline let trigger: NotificationTrigger
        @usableFromInline let payload: Payload
        @usableFromInline let scheduledAt: Date
        @usableFromInline let lastFiredAt: Date?
        @usableFromInline let timeZoneIdentifier: String?

        init(
            id: String, appName: String?, trigger: NotificationTrigger, payload: Payload, scheduledAt: Date,
            lastFiredAt: Date?, timeZoneIdentifier: String?
        ) {
            self.id = id
            self.appName = appName
            self.trigger = trigger
            self.payload = payload
            self.scheduledAt = scheduledAt
            self.lastFiredAt = lastFiredAt
            self.timeZoneIdentifier = timeZoneIdentifier
        }
    }

    @usableFromInline
    var parts: Parts

    /// The notification's id, unique among the scheduled notifications.
    package var id: String {
        @inlinable get { parts.id }
        set { change(id: newValue) }
    }

    /// The posting application's name, for ``Scheduler/withdrawAll(appName:)``; `nil` when unknown.
    package var appName: String? {
        @inlinable get { parts.appName }
        set { change(appName: .some(newValue)) }
    }

    /// When the notification fires.
    package var trigger: NotificationTrigger {
        @inlinable get { parts.trigger }
        set { change(trigger: newValue) }
    }

    /// What the owner stored with the notification.
    package var payload: Payload {
        @inlinable get { parts.payload }
        set { change(payload: newValue) }
    }

    /// When the notification was scheduled: time intervals count from it, calendar matches fire after it.
    package var scheduledAt: Date {
        @inlinable get { parts.scheduledAt }
        set { change(scheduledAt: newValue) }
    }

    /// When the notification was last delivered; `nil` if never. Its next occurrence is the first one after this.
    package var lastFiredAt: Date? {
        @inlinable get { parts.lastFiredAt }
        set { change(lastFiredAt: .some(newValue)) }
    }

    /// The zone in which ``scheduledAt`` and ``lastFiredAt`` were taken, as an IANA name.
    ///
    /// For a trigger that follows the time zone, a different zone at restore time means the user's zone changed
    /// while nothing was running: the scheduler moves the two times to the same wall-clock times in the new zone.
    package var timeZoneIdentifier: String? {
        @inlinable get { parts.timeZoneIdentifier }
        set { change(timeZoneIdentifier: .some(newValue)) }
    }

    /// Makes a scheduled notification; ``Scheduler/schedule(id:appName:trigger:payload:)`` makes them for new
    /// notifications.
    package init(
        id: String,
        appName: String? = nil,
        trigger: NotificationTrigger,
        payload: Payload,
        scheduledAt: Date,
        lastFiredAt: Date? = nil,
        timeZoneIdentifier: String? = nil
    ) {
        parts = Parts(
            id: id, appName: appName, trigger: trigger, payload: payload, scheduledAt: scheduledAt,
            lastFiredAt: lastFiredAt, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// The same notification with `payload` in place of its own: for an owner that keeps only part of its payloads in
    /// memory, and reads the rest back from the store when it needs it.
    package func replacingPayload<Other>(with payload: Other) -> ScheduledNotification<Other> {
        ScheduledNotification<Other>(
            id: id, appName: appName, trigger: trigger, payload: payload, scheduledAt: scheduledAt,
            lastFiredAt: lastFiredAt, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// Replaces the parts with a copy that has the values given (an optional part: `.some(nil)` to clear it).
    private mutating func change(
        id: String? = nil, appName: String?? = nil, trigger: NotificationTrigger? = nil, payload: Payload? = nil,
        scheduledAt: Date? = nil, lastFiredAt: Date?? = nil, timeZoneIdentifier: String?? = nil
    ) {
        parts = Parts(
            id: id ?? parts.id, appName: appName ?? parts.appName, trigger: trigger ?? parts.trigger,
            payload: payload ?? parts.payload, scheduledAt: scheduledAt ?? parts.scheduledAt,
            lastFiredAt: lastFiredAt ?? parts.lastFiredAt,
            timeZoneIdentifier: timeZoneIdentifier ?? parts.timeZoneIdentifier)
    }
}

extension ScheduledNotification: Sendable where Payload: Sendable {}
// Never changed once made: as safe to share as the values it holds.
extension ScheduledNotification.Parts: @unchecked Sendable where Payload: Sendable {}

extension ScheduledNotification: Equatable where Payload: Equatable {
    package static func == (left: Self, right: Self) -> Bool {
        left.parts === right.parts
            || (left.id == right.id && left.appName == right.appName && left.trigger == right.trigger
                && left.payload == right.payload && left.scheduledAt == right.scheduledAt
                && left.lastFiredAt == right.lastFiredAt && left.timeZoneIdentifier == right.timeZoneIdentifier)
    }
}

extension ScheduledNotification: Hashable where Payload: Hashable {
    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(appName)
        hasher.combine(trigger)
        hasher.combine(payload)
        hasher.combine(scheduledAt)
        hasher.combine(lastFiredAt)
        hasher.combine(timeZoneIdentifier)
    }
}

extension ScheduledNotification: Codable where Payload: Codable {
    /// The names of the stored fields: the row format's own (see the store's `RowFormat`), never renamed in place.
    package enum CodingKeys: String, CodingKey {
        case id
        case appName = "app-name"
        case trigger
        case payload
        case scheduledAt = "scheduled-at"
        case lastFiredAt = "last-fired-at"
        case timeZoneIdentifier = "time-zone"
    }

    /// Decodes a scheduled notification; `app-name`, `last-fired-at` and `time-zone` may be missing.
    ///
    /// - Throws: `DecodingError` when a required key is missing or a value has the wrong form.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            appName: try container.decodeIfPresent(String.self, forKey: .appName),
            trigger: try container.decode(NotificationTrigger.self, forKey: .trigger),
            payload: try container.decode(Payload.self, forKey: .payload),
            scheduledAt: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .scheduledAt)),
            lastFiredAt: try container.decodeIfPresent(Double.self, forKey: .lastFiredAt)
                .map(Date.init(timeIntervalSince1970:)),
            timeZoneIdentifier: try container.decodeIfPresent(String.self, forKey: .timeZoneIdentifier)
        )
    }

    /// Encodes the notification, with times as seconds since 1970 whatever the encoder's date strategy.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(appName, forKey: .appName)
        try container.encode(trigger, forKey: .trigger)
        try container.encode(payload, forKey: .payload)
        try container.encode(scheduledAt.timeIntervalSince1970, forKey: .scheduledAt)
        try container.encodeIfPresent(lastFiredAt?.timeIntervalSince1970, forKey: .lastFiredAt)
        try container.encodeIfPresent(timeZoneIdentifier, forKey: .timeZoneIdentifier)
    }
}

/// A scheduled notification and the next time it fires, as ``Scheduler/pending()`` lists them.
package struct PendingNotification<Payload> {
    /// The notification.
    package var notification: ScheduledNotification<Payload>
    /// When it fires next.
    package var nextFireDate: Date

    /// Makes an entry of the pending list.
    package init(notification: ScheduledNotification<Payload>, nextFireDate: Date) {
        self.notification = notification
        self.nextFireDate = nextFireDate
    }
}

extension PendingNotification: Sendable where Payload: Sendable {}
extension PendingNotification: Equatable where Payload: Equatable {}

/// One delivery of a scheduled notification, as the scheduler hands it to its `fire` closure.
package struct ScheduledFiring<Payload> {
    /// The notification as it stands after this delivery: ``ScheduledNotification/lastFiredAt`` is ``firedAt``.
    ///
    /// Store it (or, when ``nextFireDate`` is `nil`, remove it from the store), so that a restart neither repeats
    /// this delivery nor loses the next.
    package var notification: ScheduledNotification<Payload>

    /// When the notification was due. Earlier than ``firedAt`` when it was delivered late: after a downtime, a
    /// suspend, or a time-zone change that moved a wall-clock time into the past. Only the earliest undelivered
    /// occurrence is reported, however many passed.
    package var occurrence: Date

    /// When the scheduler delivered it.
    package var firedAt: Date

    /// When it fires next; `nil` when this was its last delivery and the scheduler has dropped it.
    package var nextFireDate: Date?

    /// How late the delivery was, in seconds.
    package var delay: TimeInterval { firedAt.timeIntervalSince(occurrence) }

    /// Makes a firing.
    package init(notification: ScheduledNotification<Payload>, occurrence: Date, firedAt: Date, nextFireDate: Date?) {
        self.notification = notification
        self.occurrence = occurrence
        self.firedAt = firedAt
        self.nextFireDate = nextFireDate
    }
}

extension ScheduledFiring {
    /// The same delivery of the notification with `payload` in place of its own (see
    /// ``ScheduledNotification/replacingPayload(with:)``).
    package func replacingPayload<Other>(with payload: Other) -> ScheduledFiring<Other> {
        ScheduledFiring<Other>(
            notification: notification.replacingPayload(with: payload), occurrence: occurrence, firedAt: firedAt,
            nextFireDate: nextFireDate)
    }
}

extension ScheduledFiring: Sendable where Payload: Sendable {}
extension ScheduledFiring: Equatable where Payload: Equatable {}

/// What ``Scheduler/restore(_:)`` did not take back.
package struct ScheduleRestoreReport<Payload> {
    /// Notifications with nothing left to fire (a one-shot trigger that already fired); remove them from the store.
    package var finished: [ScheduledNotification<Payload>] = []

    /// Notifications whose trigger no longer validates, with the reason; they are not scheduled.
    package var rejected: [(notification: ScheduledNotification<Payload>, error: TriggerValidationError)] = []

    /// Makes an empty report.
    package init() {}
}

extension ScheduleRestoreReport: Sendable where Payload: Sendable {}
