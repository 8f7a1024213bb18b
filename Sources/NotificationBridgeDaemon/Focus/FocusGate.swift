/// The do-not-disturb in force at one moment: the desktop's own switch, counted as a mode that lets levels through
/// by the one rule (``FocusBreakthrough/desktop``), and the focus mode that is on. A notification waits when any of
/// them holds it back, so that turning a focus mode on never lets through what the desktop's switch holds, and the
/// desktop's switch never lets through what the mode holds.
struct FocusGate: Sendable, Hashable {
    /// Whether the desktop's own do-not-disturb is on (or taken to be, before it is read).
    var desktopIsOn: Bool
    /// The focus mode that is on; `nil` when none is.
    var focus: FocusState.Active?

    /// What each do-not-disturb in force lets through.
    var breakthroughs: [FocusBreakthrough] {
        (desktopIsOn ? [.desktop] : []) + (focus.map { [$0.mode.breakthrough] } ?? [])
    }

    /// Whether `candidate` waits: some do-not-disturb in force has no rule that lets it through.
    func holdsBack(_ candidate: FocusBreakthrough.Candidate) -> Bool {
        breakthroughs.contains { $0.rule(letting: candidate) == nil }
    }
}
