import NotificationServerKit

/// Draws a notification as a few lines of terminal text: who sent it, its title and body, its numbered buttons, its
/// reply field, and the commands that act on it.
///
/// The first line starts with `┌─ #ID`, so scripts can find each notification's id in the output.
public struct NotificationCard: Sendable {
    /// The style of the text.
    public var style: TerminalStyle
    /// The text a client puts before a destructive action's label.
    public var destructiveMarker: String

    /// Makes a card drawer.
    public init(style: TerminalStyle, destructiveMarker: String) {
        self.style = style
        self.destructiveMarker = destructiveMarker
    }

    /// The lines of `notification`.
    ///
    /// - Parameters:
    ///   - buttons: its buttons (``TerminalButton/buttons(of:keys:destructiveMarker:)``).
    ///   - hasReplyField: whether it shows an inline reply field (`inline-reply` on a server that has them).
    ///   - note: a word after the header, such as `updated`.
    public func lines(
        for notification: ServedNotification, buttons: [TerminalButton], hasReplyField: Bool, note: String? = nil
    ) -> [String] {
        let id = "#\(notification.id)"
        var header = [style.bold(style.cyan(id))]
        let app = TerminalText.sanitized(notification.appName)
        header.append(app.isEmpty ? style.dim("(no app name)") : app)
        if notification.urgency >= 2 { header.append(style.red("urgent")) }
        if let note { header.append(style.dim(note)) }
        var lines = ["┌─ " + header.joined(separator: " · ")]

        let summary = TerminalText.sanitized(notification.summary)
        if !summary.isEmpty { lines.append("│ " + style.bold(summary)) }
        if !notification.body.isEmpty {
            lines += BodyMarkup(style: style).lines(of: notification.body).map { "│ " + $0 }
        }
        for button in buttons {
            var text = "[\(button.number)] \(TerminalText.sanitized(button.label))"
            if button.isDestructive {
                text =
                    style.red(style.bold("[\(button.number)] ⚠ \(TerminalText.sanitized(button.label))"))
                    + " " + style.dim("(destructive)")
            }
            lines.append("│ " + text)
        }
        if hasReplyField, let action = notification.action("inline-reply") {
            var text = "[reply] \(TerminalText.sanitized(action.label))"
            if let placeholder = notification.inlineReplyPlaceholder, !placeholder.isEmpty {
                text += " " + style.italic(style.dim("“\(TerminalText.sanitized(placeholder))”"))
            }
            if let submit = notification.inlineReplySubmitText, !submit.isEmpty {
                text += " " + style.dim("(\(TerminalText.sanitized(submit)))")
            }
            lines.append("│ " + text)
        }

        var commands: [String] = []
        if let last = buttons.last { commands.append(last.number == 1 ? "\(id) 1" : "\(id) 1-\(last.number)") }
        if hasReplyField && notification.action("inline-reply") != nil { commands.append("reply \(id) TEXT") }
        if notification.action("default") != nil { commands.append("open \(id)") }
        commands.append("dismiss \(id)")
        lines.append("└─ " + style.dim(commands.joined(separator: " · ")))
        return lines
    }
}
