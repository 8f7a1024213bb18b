import NotificationBridgeAPI
import NotificationModel

/// What `notification-bridge doctor` found: every part a notification goes through, and the problems, each with what
/// to do about it.
struct DoctorReport {
    /// The daemon.
    struct Daemon {
        var running = false
        var activatable = false
        var version: String?
        var pid: UInt32?
        /// `systemd`, `D-Bus activation` or `by hand`; `nil` when unknown.
        var startedBy: String?
    }

    /// The notification server, as the daemon sees it.
    struct Server {
        var name = ""
        var vendor = ""
        var version = ""
        var specVersion = ""
        var capabilities: [String] = []
        var quirks: [String] = []
    }

    /// What actions become on this server.
    struct Actions {
        var buttons = false
        var inlineReply = false
        /// How a text-input action is shown, by its fallback (`hide`, `deliver-without-text`).
        var textInput: [String: String] = [:]
        var promptProgram: String?
        var promptAvailable = false
        /// The daemon's display (`WAYLAND_DISPLAY` or `DISPLAY`), when it could be read.
        var promptDisplay: String?
    }

    /// The notification portal, for a sandboxed program.
    struct Portal {
        var sandboxed = false
        var available = false
        /// The version the portal advertises.
        var version: UInt32?
        /// The version whose keys reach the desktop (``PortalInfo/deliveredVersion``).
        var deliveredVersion: UInt32?
        /// The desktop backend's own version, where the bus shows it (not from inside a sandbox).
        var backendVersion: UInt32?
        /// Whether `SupportedOptions` lists anything, which only a version-2 backend does.
        var listsOptions = false
        /// What an app may ask for that does not reach this desktop (``PortalInfo/notDelivered``).
        var notDelivered: [String] = []
        /// Whether the desktop shows a reply field for a text-input action.
        var repliesWithText = false
        /// The prompt program found inside the sandbox (zenity, kdialog or yad), for typed text where the desktop
        /// has no reply field.
        var promptProgram: String?
        /// The sandbox's display (`WAYLAND_DISPLAY` or `DISPLAY`), which the prompt needs.
        var display: String?
    }

    var daemon = Daemon()
    /// Who the daemon takes the shell `doctor` runs in for (``ServerInformationKeys/caller``); `nil` when it did not
    /// say (an older daemon).
    var caller: String?
    var server: Server?
    /// The desktop's do-not-disturb as the daemon reads it; `nil` when the daemon did not say.
    var desktopDoNotDisturb: DesktopDoNotDisturbState?
    /// The focus mode on, as the daemon's `ActiveFocus` property says it; `nil` when the daemon did not say (an older
    /// daemon).
    var activeFocus: ActiveFocusState?
    var actions: Actions?
    var portal = Portal()
    /// `settings APP`'s lines, when an app was named.
    var settings: [(String, String)]?
    var settingsApp: String?
    var serviceFile: String?
    var systemdUnit: String?
    /// The `notify-send` found on `PATH`, and whether it is this program under that name.
    var notifySend: (path: String, isBridge: Bool)?
    /// What is wrong, each with what to do.
    var problems: [String] = []

    // MARK: Rendering

    /// The report for a person: a few lines per part, then the problems.
    var text: String {
        var lines: [String] = []
        if daemon.running {
            var parts = ["running"]
            if let version = daemon.version { parts.append("version \(version)") }
            if let pid = daemon.pid { parts.append("process \(pid)") }
            if let startedBy = daemon.startedBy { parts.append("started by \(startedBy)") }
            lines.append("daemon: " + parts.joined(separator: ", "))
            if let caller { lines.append("caller: \(caller), as the daemon identifies this shell") }
        } else {
            lines.append("daemon: not running" + (daemon.activatable ? " (D-Bus can start it)" : ""))
        }
        if let server, server.name.isEmpty {
            lines.append("server: none (nothing owns org.freedesktop.Notifications on this bus)")
        } else if let server {
            lines.append(
                "server: \(server.name) \(server.version) (\(server.vendor)), specification \(server.specVersion)")
            lines.append("  capabilities: " + server.capabilities.joined(separator: ", "))
            lines.append(
                "  sounds: "
                    + (server.capabilities.contains("sound")
                        ? "played by the server"
                        : "not played by the server (no 'sound' capability): the desktop's own settings decide"))
            if server.quirks.isEmpty {
                lines.append("  quirks: none")
            } else {
                lines.append("  quirks the bridge applies:")
                lines += server.quirks.map { "    - \($0)" }
            }
        } else {
            lines.append("server: unknown")
        }
        if let desktopDoNotDisturb {
            lines.append(
                "desktop do-not-disturb: "
                    + (desktopDoNotDisturb.source.isEmpty
                        ? "none the bridge can read on this server (counts as off)"
                        : "\(desktopDoNotDisturb.isOn ? "on" : "off") (\(desktopDoNotDisturb.source))"))
        }
        if let activeFocus {
            lines.append("focus mode: " + Self.describe(activeFocus))
        }
        if let actions {
            lines.append("actions on this server:")
            lines.append("  buttons: " + (actions.buttons ? "shown" : "not shown (the server has no 'actions')"))
            lines.append("  typed replies: " + typedReplies(actions))
            let display = actions.promptDisplay.map { "display \($0)" } ?? "no display in the daemon's environment"
            if let program = actions.promptProgram {
                lines.append(
                    "  prompt program: \(program), "
                        + (actions.promptAvailable
                            ? "can ask (\(display))"
                            : "found but cannot show a window (\(display))"))
            } else {
                lines.append("  prompt program: none found (zenity, kdialog, yad, or --prompt-command)")
            }
        }
        if portal.sandboxed {
            lines += portalLines
        } else {
            lines.append("portal: not sandboxed (the daemon posts to the server itself)")
        }
        if let settings, let settingsApp {
            lines.append("settings of \(settingsApp):")
            lines += settings.map { "  \($0.0): \($0.1)" }
        }
        lines.append("D-Bus activation: " + (serviceFile ?? "no service file found"))
        lines.append("systemd user unit: " + (systemdUnit ?? "not installed"))
        if let notifySend {
            lines.append(
                "notify-send: \(notifySend.path) " + (notifySend.isBridge ? "(this bridge)" : "(another program)"))
        } else {
            lines.append("notify-send: not on PATH")
        }
        if problems.isEmpty {
            lines.append("no problems found")
        } else {
            lines.append("problems:")
            lines += problems.map { "  - \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The portal's lines, for a sandboxed program: what it advertises, what reaches the desktop, and how typed text
    /// is asked for.
    private var portalLines: [String] {
        guard portal.available, let version = portal.version else {
            return ["portal: sandboxed; notification portal not available"]
        }
        guard let delivered = portal.deliveredVersion, delivered < version else {
            return ["portal: sandboxed; notification portal version \(version)"] + portalDelivery
        }
        let why =
            if let backend = portal.backendVersion {
                "its backend implements version \(backend)"
            } else {
                "its backend lists no supported options, and its own version is not visible from the sandbox"
            }
        let line = "portal: sandboxed; notification portal version \(version), delivering version \(delivered)'s keys"
        return ["\(line) (\(why))"] + portalDelivery
    }

    private var portalDelivery: [String] {
        var lines: [String] = []
        if !portal.notDelivered.isEmpty {
            lines.append("  not delivered to this desktop: " + portal.notDelivered.joined(separator: ", "))
        }
        if portal.repliesWithText {
            lines.append("  typed replies: in the notification (the desktop's reply field)")
        } else if let program = portal.promptProgram {
            lines.append(
                "  typed replies: in the bridge's prompt, \(program) in the sandbox, "
                    + (portal.display.map { "display \($0)" } ?? "but no display to show it on"))
        } else {
            lines.append("  typed replies: no way to type (no reply field, no prompt program in the sandbox)")
        }
        return lines
    }

    private func typedReplies(_ actions: Actions) -> String {
        if actions.inlineReply { return "in the notification (inline reply)" }
        if actions.textInput.values.contains("prompt") { return "in the bridge's prompt" }
        return "no way to type: text-input actions are hidden, or (with fallback deliver-without-text) buttons "
            + "that return no text"
    }

    /// The report as one JSON object.
    var json: JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        var members: [String: JSONValue] = [
            "daemon": .object([
                "running": .bool(daemon.running), "activatable": .bool(daemon.activatable),
                "version": string(daemon.version), "pid": daemon.pid.map { .number(Double($0)) } ?? .null,
                "started-by": string(daemon.startedBy),
            ]),
            ServerInformationKeys.caller.name: string(caller),
            "portal": .object([
                "sandboxed": .bool(portal.sandboxed), "available": .bool(portal.available),
                "version": portal.version.map { .number(Double($0)) } ?? .null,
                "delivered-version": portal.deliveredVersion.map { .number(Double($0)) } ?? .null,
                "backend-version": portal.backendVersion.map { .number(Double($0)) } ?? .null,
                "not-delivered": .array(portal.notDelivered.map(JSONValue.string)),
                "replies-with-text": .bool(portal.repliesWithText),
                "prompt-program": string(portal.promptProgram), "display": string(portal.display),
            ]),
            "service-file": string(serviceFile), "systemd-unit": string(systemdUnit),
            "notify-send": notifySend.map { .object(["path": .string($0.path), "is-bridge": .bool($0.isBridge)]) }
                ?? .null,
            "problems": .array(problems.map(JSONValue.string)),
        ]
        if let server {
            members["server"] = .object([
                "name": .string(server.name), "vendor": .string(server.vendor), "version": .string(server.version),
                "spec-version": .string(server.specVersion),
                "capabilities": .array(server.capabilities.map(JSONValue.string)),
                "quirks": .array(server.quirks.map(JSONValue.string)),
            ])
        }
        if let desktopDoNotDisturb {
            members["desktop-do-not-disturb"] = .object([
                DoNotDisturbKeys.isOn.name: .bool(desktopDoNotDisturb.isOn),
                DoNotDisturbKeys.source.name: .string(desktopDoNotDisturb.source),
            ])
        }
        if let activeFocus { members["focus"] = activeFocus.json }
        if let actions {
            members["actions"] = .object([
                "buttons": .bool(actions.buttons), "inline-reply": .bool(actions.inlineReply),
                "text-input": .object(actions.textInput.mapValues(JSONValue.string)),
                "prompt-program": string(actions.promptProgram), "prompt-available": .bool(actions.promptAvailable),
                "prompt-display": string(actions.promptDisplay),
            ])
        }
        if let settings, let settingsApp {
            var object: [String: JSONValue] = ["app": .string(settingsApp)]
            for (key, value) in settings { object[key] = .string(value) }
            members["settings"] = .object(object)
        }
        return .object(members)
    }
}

extension DoctorReport {
    /// The `focus mode:` line: none, or the mode, how it came on, and until when (UTC).
    static func describe(_ focus: ActiveFocusState) -> String {
        guard !focus.name.isEmpty else { return "none" }
        let how = focus.cause == "scheduled" ? "by its schedule" : "by hand"
        return "\(focus.name), on \(how), "
            + (focus.until.map { "until \(ISO8601Text.utc(seconds: $0))" } ?? "until turned off")
    }
}
