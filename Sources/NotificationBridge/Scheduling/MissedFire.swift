import Foundation

/// The outcome of ``TriggerEvaluator/missedFire(for:anchor:lastFired:now:)``: whether to deliver a notification now,
/// and when it fires next.
public struct MissedFire: Sendable, Hashable {
    /// The earliest occurrence that passed without being delivered; `nil` when none did.
    ///
    /// Deliver the notification once, now, whatever the number of periods that passed.
    public var missedOccurrence: Date?

    /// The next fire date after now; `nil` when the trigger has nothing left to fire.
    public var nextFireDate: Date?

    /// Whether the notification is to be delivered now.
    public var isDue: Bool { missedOccurrence != nil }

    /// Makes an outcome.
    public init(missedOccurrence: Date?, nextFireDate: Date?) {
        self.missedOccurrence = missedOccurrence
        self.nextFireDate = nextFireDate
    }
}
