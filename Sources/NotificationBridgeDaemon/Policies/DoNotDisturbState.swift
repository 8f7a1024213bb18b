import NotificationBridge

/// What the daemon knows of the desktop's do-not-disturb, and of the notifications it holds back: the switch as last
/// read, the place the next one held takes in the order they are shown, and whether they are being shown. A plain
/// value: the daemon keeps one and asks it; the held notifications themselves are entries of the table.
struct DoNotDisturbState: Sendable {
    /// The desktop's switch as last read; `nil` until the first reading.
    private(set) var desktop: DesktopDoNotDisturb?
    /// The place of the next notification held back.
    private var nextHeldOrder: UInt64 = 0
    /// Whether the held notifications are being shown, one after the other.
    private(set) var isReleasingHeld = false

    /// Takes `reading` as the switch's state; returns whether it changed (the first reading always does).
    mutating func read(_ reading: DesktopDoNotDisturb) -> Bool {
        guard desktop != reading else { return false }
        desktop = reading
        return true
    }

    /// Whether the desktop's switch is on, taking it as `unread` while it has not been read.
    func desktopIsOn(unread: Bool) -> Bool {
        desktop?.isOn ?? unread
    }

    /// Takes the place of the next notification held back: later ones are shown after.
    mutating func takeHeldOrder() -> UInt64 {
        defer { nextHeldOrder += 1 }
        return nextHeldOrder
    }

    /// Starts a run that shows the held notifications; `false` when one runs already (one run at a time).
    mutating func beginReleasing() -> Bool {
        guard !isReleasingHeld else { return false }
        isReleasingHeld = true
        return true
    }

    /// The run that showed the held notifications ended.
    mutating func endReleasing() {
        isReleasingHeld = false
    }
}
