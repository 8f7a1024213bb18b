import FoundationEssentials
import NotificationScheduling

/// A named way of not being disturbed ("work", "sleep"), as iOS's Focus: what it still lets through, and when it turns
/// itself on.
struct FocusMode: Sendable, Hashable, Codable {
    /// Its name, as the user gives it.
    var name: String
    /// What still reaches the user while it is on.
    var breakthrough = FocusBreakthrough()
    /// When it turns itself on; none: only by hand.
    var schedules: [FocusSchedule] = []

    /// A mode named `name`.
    ///
    /// - Throws: ``FocusError`` for an empty name or one with a control character.
    init(name: String, breakthrough: FocusBreakthrough = FocusBreakthrough(), schedules: [FocusSchedule] = [])
        throws(FocusError)
    {
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw FocusError("a focus mode needs a name without control characters, such as work or sleep")
        }
        self.name = name
        self.breakthrough = breakthrough
        self.schedules = schedules
    }

    /// The period one of its schedules has it on at `date`, the one that ends last where they overlap.
    func scheduledPeriod(containing date: Date, in evaluator: TriggerEvaluator) -> Range<Date>? {
        schedules.compactMap { $0.period(containing: date, in: evaluator) }.max { $0.upperBound < $1.upperBound }
    }
}
