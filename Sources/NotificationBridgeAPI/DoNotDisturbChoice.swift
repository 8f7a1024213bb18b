/// What the daemon does with a notification that the desktop's do-not-disturb holds back (``PostKeys/ifDoNotDisturb``).
public enum DoNotDisturbChoice: String, CaseIterable, Sendable, Hashable {
    /// It waits, listed with `ListPending`, and is shown once the switch is off: the default.
    case hold
    /// It is not shown: it ends at once, and its poster gets `Closed` with
    /// ``BridgeCloseReason/droppedWhileDoNotDisturb``.
    case drop
}
