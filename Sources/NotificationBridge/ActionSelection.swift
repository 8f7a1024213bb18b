import NotificationModel

/// Which actions of a notification become buttons, and in which order: the same rules on every path (the
/// freedesktop server and the XDG portal), so that an app sees one behaviour.
///
/// - The actions are the category's, or the notification's own.
/// - Where fewer buttons fit than there are actions, the category's minimal actions are used when it names them;
///   otherwise, or if still too many, the ones dropped are the last non-destructive ones.
/// - Destructive actions go where ``NotificationRendering/DestructiveOrder`` says, or last whatever the order when the
///   first button is preselected, so that no destructive action is ever the default choice.
struct ActionSelection: Sendable {
    /// How many buttons fit; `nil` for no limit.
    var maximumButtons: Int?
    /// Whether the first button is preselected (a combo box, a menu).
    var preselectsFirstAction: Bool
    /// Where destructive actions go.
    var destructiveOrder: NotificationRendering.DestructiveOrder

    /// The actions to show, in order, with `reserved` buttons left for the bridge's own (a snooze button).
    func actions(
        _ content: NotificationContent, category: NotificationCategory?, reserving reserved: Int = 0
    ) -> [NotificationAction] {
        var actions = category?.actions ?? content.actions
        if let buttons = maximumButtons, case let limit = max(buttons - reserved, 0), actions.count > limit {
            // The minimal context only when the category names one: the first two of the default context would leave
            // buttons unused (GNOME Shell shows three) and could leave out what the user needs most.
            if let minimal = category?.minimalActions, !minimal.isEmpty { actions = minimal }
            while actions.count > limit {
                guard let index = actions.lastIndex(where: { !$0.isDestructive }) else {
                    actions.removeLast()
                    continue
                }
                actions.remove(at: index)
            }
        }
        let destructive = actions.filter(\.isDestructive)
        let others = actions.filter { !$0.isDestructive }
        if preselectsFirstAction, !others.isEmpty { return others + destructive }
        switch destructiveOrder {
        case .first: return destructive + others
        case .asGiven: return actions
        case .last: return others + destructive
        }
    }
}
