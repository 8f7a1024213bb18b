/// What the daemon knows of focus modes: the user's modes with what they said by hand, and the mode found on when
/// they were last asked (``DaemonCore/focusChanged(at:in:)``), which the gate reads without waiting.
struct DaemonFocus: Sendable, Hashable {
    /// The modes and what was said by hand.
    var state = FocusState()
    /// The mode on when last asked; `nil` when none was.
    var active: FocusState.Active?
    /// The mode that ended with notifications held, whose digest stands for them until the user answers it; `nil`
    /// when the held ones are shown one by one, as the desktop's switch shows them.
    var digestMode: String?
}
