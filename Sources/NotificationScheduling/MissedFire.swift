import FoundationEssentials

/// The outcome of ``TriggerEvaluator/missedFire(for:anchor:lastFired:now:)``: whether to deliver a notification now,
/// and when it fires next.
package struct MissedFire: Sendable, Hashable {
    /// The earliest occurrence that passed without being delivered; `nil` when none did.
    ///
    /// Deliver the notification once, now, whatever the number of periods that passed.
    package var missedOccurrence: Date?

    /// The next fire date after now; `nil` when the trigger has nothing left to fire.
    package var nextFireDate: Date?

    /// Whether the notification is to be delivered now.
    package var isDue: Bool { missedOccurrence != nil }

    /// Makes an outcome.
    package init(missedOccurrence: Date?, nextFireDate: Date?) {
        self.missedOccurrence = missedOccurrence
        self.nextFireDate = nextFireDate
    }
}
