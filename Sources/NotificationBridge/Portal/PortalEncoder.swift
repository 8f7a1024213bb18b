import DBusCore
import FoundationEssentials
import NotificationModel

/// Turns a notification of the model into an `AddNotification` call on the XDG notification portal, and remembers
/// which portal action stands for which action of the model.
///
/// The rules, the same as ``NotifyEncoder``'s where the portal has the feature:
/// 1. The actions are the category's or the notification's own, chosen and ordered by ``ActionSelection``: the portal
///    does not say how many buttons the desktop shows, so a category with more than three actions (GNOME Shell's
///    limit) shows its minimal set; destructive actions go where ``NotificationRendering`` says, with its marker.
/// 2. Each action is a button whose `action` is the action id and whose `target` names the action and carries the
///    category id and the user info (``PortalTarget``). No action name starts with `app.`: the portal then sends
///    `ActionInvoked` to the app instead of activating an exported action, and the center raises the app itself for
///    foreground actions. An app that exports its actions (``activatesApp``) gets `app.` and the action id instead,
///    and the notification's id in the target: the portal then activates the action on the app by its app id, also
///    when the app is not running.
/// 3. A text-input action is a button with purpose `im.reply-with-text` where the portal offers it (version 2); else a
///    button that opens the bridge's prompt, run inside the sandbox, when one can run there; else the action's
///    fallback.
/// 4. The default action (`default`, a click on the body) is the `default-action` when the content has a label for
///    it.
/// 5. Urgency is `priority`; where version 2 reaches the desktop (``PortalInfo/deliveredVersion``), sound, display
///    hints (transient, resident as `persistent`) and a category the desktop lists in `SupportedOptions`; what a
///    version-1 backend would drop is not sent, and the text prompt stands in for a reply field.
package struct PortalEncoder: Sendable {
    /// What the portal offers.
    package var portal: PortalInfo
    /// Where destructive actions go and how they are marked.
    package var rendering: NotificationRendering
    /// Whether the bridge can show its own text prompt in this sandbox.
    package var promptAvailable: Bool
    /// Whether the app exports its actions (``DesktopNotificationCenter/Configuration/activatableAppID``): action
    /// names then start with `app.`, so that the portal activates them on the app (starting it when it is not running),
    /// and each target carries the notification's id.
    package var activatesApp = false

    /// The most buttons the encoder shows, since the portal does not say how many fit.
    static let maximumButtons = 3

    /// Makes an encoder for one portal.
    package init(portal: PortalInfo, rendering: NotificationRendering = .init(), promptAvailable: Bool) {
        self.portal = portal
        self.rendering = rendering
        self.promptAvailable = promptAvailable
    }

    /// The result of encoding: the notification dictionary and the meaning of each portal action.
    package struct Encoded: Sendable, Hashable {
        /// `AddNotification`'s dictionary.
        package var notification: [String: DBusValue]
        /// Portal action name → the action it stands for; `default` is not listed.
        package var actionsByName: [String: NotificationAction]
        /// How each text-input action is rendered, by action id.
        package var textInput: [String: TextInputRendering]
    }

    /// How a text-input action is shown through this portal.
    package func textInputRendering(for action: NotificationAction) -> TextInputRendering {
        if portal.repliesWithText { return .inlineReply }
        if promptAvailable { return .prompt }
        return action.textInputFallback == .hide ? .hidden : .buttonWithoutText
    }

    /// Encodes `content` with its resolved `category` (nil for a notification with its own actions).
    ///
    /// - Parameters:
    ///   - content: what to show.
    ///   - category: the registered category the content names; `nil` for none.
    ///   - serverCategory: a freedesktop category hint of the caller's (`im.received`, …), sent as the portal's
    ///     `category` when the desktop lists it (version 2).
    ///   - id: the bridge's id of the notification, carried in the targets when ``activatesApp``.
    package func encode(
        _ content: NotificationContent, category: NotificationCategory?, serverCategory: String? = nil,
        id: String? = nil
    ) -> Encoded {
        typealias Key = PortalWire.Key
        var notification: [String: DBusValue] = [
            Key.title: .string(content.title),
            Key.body: .string(content.body),
            Key.priority: .string(Self.priority(of: content)),
        ]
        if let icon = content.icon.flatMap(Self.icon) { notification[Key.icon] = icon }
        let carriedID = activatesApp ? id : nil
        let target = PortalTarget(
            actionID: NotificationResponse.defaultActionID, content: content, notificationID: carriedID)
        if content.defaultActionLabel != nil {
            notification[Key.defaultAction] = .string(wireName(NotificationResponse.defaultActionID))
            notification[Key.defaultActionTarget] = target.value
        }

        var buttons: [DBusValue] = []
        var actionsByName: [String: NotificationAction] = [:]
        var textInput: [String: TextInputRendering] = [:]
        let selection = ActionSelection(
            maximumButtons: Self.maximumButtons, preselectsFirstAction: false,
            destructiveOrder: rendering.destructiveOrder)
        for action in selection.actions(content, category: category) {
            var button: [String: DBusValue] = [
                PortalWire.Button.label: .string(
                    action.isDestructive ? rendering.destructiveMarker + action.title : action.title),
                PortalWire.Button.action: .string(wireName(action.id)),
                PortalWire.Button.target: PortalTarget(actionID: action.id, content: content, notificationID: carriedID)
                    .value,
            ]
            if action.isTextInput {
                let shown = textInputRendering(for: action)
                textInput[action.id] = shown
                if shown == .hidden { continue }
                if shown == .inlineReply { button[PortalWire.Button.purpose] = .string(PortalWire.replyWithText) }
            }
            buttons.append(.vardict(button))
            actionsByName[action.id] = action
        }
        notification[Key.buttons] = .array(element: "a{sv}", buttons)

        if portal.deliveredVersion >= 2 {
            if let sound = Self.sound(content.sound) { notification[Key.sound] = sound }
            var hints: [String] = []
            if content.isTransient { hints.append(PortalWire.transientHint) }
            if content.isResident { hints.append(PortalWire.persistentHint) }
            if !hints.isEmpty { notification[Key.displayHint] = .strings(hints) }
            if let serverCategory, let category = Self.portalCategory(serverCategory, listed: portal.categories) {
                notification[Key.category] = .string(category)
            }
        }
        return Encoded(notification: notification, actionsByName: actionsByName, textInput: textInput)
    }

    /// The portal's name for the action `id`: the app's exported action where ``activatesApp``.
    func wireName(_ id: String) -> String {
        activatesApp ? PortalWire.applicationActionPrefix + id : id
    }

    /// The portal's priority for a notification: its level's where the app left the urgency at normal (passive `low`,
    /// time-sensitive `high`, critical always `urgent`), else its urgency's.
    static func priority(of content: NotificationContent) -> String {
        switch content.interruptionLevel {
        case .critical: "urgent"
        case .passive where content.urgency == .normal: "low"
        case .timeSensitive where content.urgency == .normal: "high"
        case .passive, .active, .timeSensitive: priority(content.urgency)
        }
    }

    /// The portal's priority for an urgency: a critical notification is `urgent`.
    static func priority(_ urgency: NotificationUrgency) -> String {
        switch urgency {
        case .low: "low"
        case .normal: "normal"
        case .critical: "urgent"
        }
    }

    /// A serialized icon: an icon name as a themed icon; a file (a path or a `file://` URI) as its bytes, which a
    /// sandboxed app can read and the portal's host side cannot; `nil` for a file that cannot be read.
    static func icon(_ icon: String) -> DBusValue? {
        let path = icon.hasPrefix("file://") ? URL(string: icon)?.path : (icon.hasPrefix("/") ? icon : nil)
        guard let path else {
            return .structure([.string(PortalWire.themed), .variant(.strings([icon]))])
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return .structure([.string(PortalWire.bytes), .variant(.array(element: "y", data.map { .byte($0) }))])
    }

    /// A serialized sound (version 2): the desktop's default, silence, or a file's bytes. A sound theme name has no
    /// counterpart: the desktop's default sound plays.
    static func sound(_ sound: NotificationSound) -> DBusValue? {
        switch sound {
        case .default, .named: return .string(PortalWire.defaultSound)
        case .none: return .string(PortalWire.silentSound)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return .string(PortalWire.defaultSound) }
            return .structure([.string(PortalWire.bytes), .variant(.array(element: "y", data.map { .byte($0) }))])
        }
    }

    /// The portal category for a freedesktop category hint: the same word when the desktop lists it, `im.message`
    /// for the freedesktop `im` family, vendor categories (`x-…`) as they are; `nil` otherwise.
    static func portalCategory(_ hint: String, listed: Set<String>) -> String? {
        if listed.contains(hint) || hint.hasPrefix("x-") { return hint }
        if hint == "im" || hint.hasPrefix("im.") { return listed.contains("im.message") ? "im.message" : nil }
        return nil
    }
}
