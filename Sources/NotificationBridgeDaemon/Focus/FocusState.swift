import FoundationEssentials
import NotificationBridgeAPI
import NotificationScheduling

/// The user's focus modes and what they turned on or off by hand: which mode is on at any instant, and when that
/// changes next. A pure value: the daemon asks it again when its timer fires, when the wall clock steps and when the
/// time zone changes, and every answer depends only on the instant asked about.
///
/// As on iOS: a mode turned on by hand ("for 1h", "until 18:00", or until turned off) wins over the schedules; turning
/// off a mode that a schedule turned on keeps it off until that scheduled period ends; where two schedules overlap,
/// the mode first by name is on.
struct FocusState: Sendable, Hashable, Codable {
    /// What the user said by hand.
    enum Override: Sendable, Hashable, Codable {
        /// This mode is on until the date (`nil`: until turned off).
        case on(mode: String, until: Date?)
        /// No mode is on until the date, whatever the schedules say.
        case off(until: Date)
    }

    /// Why a mode is on.
    enum Cause: String, Sendable, Hashable {
        case manual
        case scheduled
    }

    /// The mode that is on, why, and until when (`nil`: until turned off).
    struct Active: Sendable, Hashable {
        var mode: FocusMode
        var cause: Cause
        var until: Date?
    }

    /// The modes, by name.
    private(set) var modes: [String: FocusMode] = [:]
    /// What the user said by hand, if it still counts.
    private(set) var override: Override?

    /// Adds `mode`, or replaces the one of its name.
    mutating func save(_ mode: FocusMode) {
        modes[mode.name] = mode
    }

    /// Makes `modes` the modes, as the settings file defines them; one that was on by hand and is gone is off.
    mutating func replaceModes(_ modes: [String: FocusMode]) {
        self.modes = modes
        if case .on(let name, _)? = override, modes[name] == nil { override = nil }
    }

    /// Removes the mode named `name`; one that was on by hand is off.
    ///
    /// - Throws: ``FocusError`` when there is no such mode.
    mutating func remove(_ name: String) throws(FocusError) {
        guard modes.removeValue(forKey: name) != nil else { throw unknown(name) }
        if case .on(name, _)? = override { override = nil }
    }

    /// Turns the mode named `name` on by hand, until `until` (`nil`: until turned off).
    ///
    /// - Throws: ``FocusError`` when there is no such mode, or `until` is not after `now`.
    mutating func turnOn(_ name: String, until: Date?, now: Date) throws(FocusError) {
        guard modes[name] != nil else { throw unknown(name) }
        if let until, until <= now {
            throw FocusError("the end of \(quotedForMessage(name)) has passed; give a time to come, or a duration")
        }
        override = .on(mode: name, until: until)
    }

    /// Turns off whatever mode is on at `now`: one on by hand ends, one a schedule turned on stays off until its
    /// period ends.
    mutating func turnOff(now: Date, in evaluator: TriggerEvaluator) {
        override = nil
        if let scheduled = active(at: now, in: evaluator), let until = scheduled.until {
            override = .off(until: until)
        }
    }

    /// The mode on at `date`; `nil` when none is.
    func active(at date: Date, in evaluator: TriggerEvaluator) -> Active? {
        if case .on(let name, let until)? = override, until.map({ date < $0 }) ?? true, let mode = modes[name] {
            return Active(mode: mode, cause: .manual, until: until)
        }
        if case .off(let until)? = override, date < until { return nil }
        for name in modes.keys.sorted() {
            guard let mode = modes[name], let period = mode.scheduledPeriod(containing: date, in: evaluator) else {
                continue
            }
            return Active(mode: mode, cause: .scheduled, until: period.upperBound)
        }
        return nil
    }

    /// The first instant after `date` at which what ``active(at:in:)`` says may change: the end of what was said by
    /// hand, or a schedule's next start or end; `nil` when nothing will change by itself.
    func nextChange(after date: Date, in evaluator: TriggerEvaluator) -> Date? {
        var changes: [Date] = []
        switch override {
        case .on(_, let until?)?, .off(let until)?:
            if until > date { changes.append(until) }
        default:
            break
        }
        for mode in modes.values {
            changes += mode.schedules.compactMap { $0.nextChange(after: date, in: evaluator) }
        }
        return changes.min()
    }

    private func unknown(_ name: String) -> FocusError {
        let known = modes.keys.sorted().map { quotedForMessage($0) }.joined(separator: ", ")
        return FocusError(
            "there is no focus mode \(quotedForMessage(name)); "
                + (known.isEmpty ? "make one first" : "the modes are \(known)"))
    }
}
