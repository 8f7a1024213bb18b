import DBusCore
import FreedesktopNotifications
import NotificationModel

/// Turns a notification of the model into a `Notify` call for one server, and remembers which wire key stands for
/// which action.
///
/// The rules, applied in order:
/// 1. The actions are the category's, or the notification's own.
/// 2. On a server that shows few buttons, the category's minimal actions are used when it names them; otherwise, or
///    if still too many, the ones dropped are the last non-destructive ones, so that every button that fits is used.
/// 3. Destructive actions are ordered as ``NotificationRendering/destructiveOrder`` says and labelled with its marker;
///    on a server that preselects the first action (``NotificationServerInfo/preselectsFirstAction``) they go last
///    whatever the order, so that no destructive action is ever the default choice.
/// 4. A text-input action becomes the `inline-reply` pair with the `x-kde-reply-*` hints where the server has
///    `inline-reply`; elsewhere a button that opens the bridge's prompt, or — when no prompt can run — what the
///    action's fallback says (hidden, or a button whose response has no text).
/// 5. The default action (`default`, a click on the body) comes first when the content has a label for it.
/// 6. The interruption level sets the urgency, the sound and the timeout as the server's row of
///    ``NotificationServerInfo/wire(for:)`` says.
/// 7. The snooze intervals of the content (``NotificationContent/snoozeIntervals``, which the daemon sets from the
///    category and the user's settings) come last, one button each (`snooze:SECONDS`, labelled "Snooze 10 min"); on
///    a server that shows few buttons only the first, whose button is kept free of the actions'.
///
/// The bridge's category id is the bridge's own: it is never sent as the freedesktop `category` hint, which has a
/// vocabulary of its own (`email.arrived`, `im.received`, …) and comes only from the caller's hints.
package struct NotifyEncoder: Sendable {
    /// The server's capabilities and identity.
    package var server: NotificationServerInfo
    /// Where destructive actions go and how they are marked.
    package var rendering: NotificationRendering
    /// Whether the bridge can show its own text prompt on this machine.
    package var promptAvailable: Bool

    /// Makes an encoder for one server.
    package init(server: NotificationServerInfo, rendering: NotificationRendering = .init(), promptAvailable: Bool) {
        self.server = server
        self.rendering = rendering
        self.promptAvailable = promptAvailable
    }

    /// The result of encoding: the call and the meaning of each wire key.
    package struct Encoded: Sendable, Hashable {
        /// The `Notify` arguments.
        package var request: NotifyRequest
        /// Wire action key → the action it stands for (`inline-reply` included); `default` and the snooze buttons
        /// are not listed.
        package var actionsByKey: [String: NotificationAction]
        /// Wire action key of each snooze button the encoder added → the interval it puts the notification off for.
        package var snoozeByKey: [String: SnoozeInterval] = [:]
        /// How each text-input action is rendered, by action id.
        package var textInput: [String: TextInputRendering]
    }

    /// How a text-input action is shown on this server.
    package func textInputRendering(for action: NotificationAction) -> TextInputRendering {
        guard server.supportsActions else { return .hidden }
        if server.supportsInlineReply { return .inlineReply }
        if promptAvailable { return .prompt }
        return action.textInputFallback == .hide ? .hidden : .buttonWithoutText
    }

    /// Encodes `content` with its resolved `category` (nil for a notification with its own actions).
    ///
    /// - Parameters:
    ///   - content: what to show.
    ///   - category: the registered category the content names, whose actions it shows; `nil` for none.
    ///   - replacesID: the server id of the notification this one updates, or 0.
    ///   - senderPID: the process the notification comes from, sent as the `sender-pid` hint like libnotify does.
    ///   - extraHints: hints of the caller's own (such as `x-canonical-private-synchronous`), added after the
    ///     encoder's: a hint the encoder sets keeps the encoder's value.
    package func encode(
        _ content: NotificationContent, category: NotificationCategory?, replacesID: UInt32 = 0,
        senderPID: Int64? = nil, extraHints: [String: DBusValue] = [:]
    ) -> Encoded {
        let level = server.wire(for: content.interruptionLevel)
        var hints: [String: DBusValue] = ["urgency": .byte(Self.urgency(of: content, level: level).rawValue)]
        if let desktopEntry = content.desktopEntry { hints["desktop-entry"] = .string(desktopEntry) }
        if let senderPID { hints["sender-pid"] = .int64(senderPID) }
        if let image = content.image { hints["image-path"] = .string(image) }
        if content.isResident { hints["resident"] = .boolean(true) }
        if content.isTransient { hints["transient"] = .boolean(true) }
        switch level.isSilent ? NotificationSound.none : content.sound {
        case .default: break
        case .named(let name): hints["sound-name"] = .string(name)
        case .file(let path): hints["sound-file"] = .string(path)
        case .none: hints["suppress-sound"] = .boolean(true)
        }

        var wire: [String] = []
        var actionsByKey: [String: NotificationAction] = [:]
        var textInput: [String: TextInputRendering] = [:]
        var snoozeByKey: [String: SnoozeInterval] = [:]
        if server.supportsActions {
            if let label = content.defaultActionLabel {
                wire += [NotificationResponse.defaultActionID, label]
            }
            let snooze = snoozeButtons(content)
            for action in selectedActions(content, category: category, reserving: snooze.count) {
                var key = action.id
                if action.isTextInput {
                    let rendering = textInputRendering(for: action)
                    textInput[action.id] = rendering
                    switch rendering {
                    case .hidden:
                        continue
                    case .inlineReply:
                        key = ReservedActionID.inlineReply.rawValue
                        if case .textInput(let input) = action.behavior {
                            if let placeholder = input.placeholder {
                                hints["x-kde-reply-placeholder-text"] = .string(placeholder)
                            }
                            if let submit = input.submitButtonTitle {
                                hints["x-kde-reply-submit-button-text"] = .string(submit)
                            }
                        }
                    case .prompt, .buttonWithoutText:
                        break
                    }
                }
                let label = action.isDestructive ? rendering.destructiveMarker(on: server) + action.title : action.title
                wire += [key, label]
                actionsByKey[key] = action
            }
            for (interval, title) in snooze {
                wire += [interval.actionKey, title]
                snoozeByKey[interval.actionKey] = interval
            }
        } else {
            for action in selectedActions(content, category: category) where action.isTextInput {
                textInput[action.id] = .hidden
            }
        }

        hints.merge(extraHints) { own, _ in own }

        let escapes = server.supportsBodyMarkup && !content.bodyIsMarkup
        let body = escapes ? MarkupEscaping.escape(content.body) : content.body
        let request = NotifyRequest(
            appName: content.appName ?? "", replacesID: replacesID, appIcon: content.icon ?? "",
            summary: content.title, body: body, actions: wire, hints: hints,
            expireTimeout: Self.timeout(of: content, level: level).wireValue)
        return Encoded(request: request, actionsByKey: actionsByKey, snoozeByKey: snoozeByKey, textInput: textInput)
    }

    /// The urgency sent: critical for a critical notification, else the app's, or the level's where the app left it
    /// at normal.
    static func urgency(of content: NotificationContent, level: InterruptionLevelWire) -> NotificationUrgency {
        guard content.interruptionLevel != .critical else { return .critical }
        return content.urgency == .normal ? level.urgency ?? .normal : content.urgency
    }

    /// The timeout sent: the app's, or the level's where the app left it at the server's default.
    static func timeout(of content: NotificationContent, level: InterruptionLevelWire) -> NotificationTimeout {
        content.timeout == .serverDefault ? level.timeout ?? .serverDefault : content.timeout
    }

    /// The actions to show, in order, after applying the button limit (less `reserved` buttons) and the destructive
    /// order.
    func selectedActions(
        _ content: NotificationContent, category: NotificationCategory?, reserving reserved: Int = 0
    ) -> [NotificationAction] {
        ActionSelection(
            maximumButtons: server.maximumButtons, preselectsFirstAction: server.preselectsFirstAction,
            destructiveOrder: rendering.destructiveOrder
        ).actions(content, category: category, reserving: reserved)
    }

    /// The snooze buttons, each an interval with its label: one for each interval, or only the first where the
    /// server shows few buttons.
    func snoozeButtons(_ content: NotificationContent) -> [(interval: SnoozeInterval, title: String)] {
        let intervals = content.snoozeIntervals ?? []
        let shown = server.maximumButtons == nil ? intervals : Array(intervals.prefix(1))
        return shown.map { ($0, "Snooze \($0.label)") }
    }
}
