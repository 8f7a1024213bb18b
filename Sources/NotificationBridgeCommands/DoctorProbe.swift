import DBusCore
import FreedesktopNotifications
import NotificationBridgeAPI
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Gathers what `doctor` reports: from the bus (who owns the daemon's name, what can be activated), from the daemon
/// (its server information and settings), from the daemon's process (how it was started, its display) and from the
/// files a distribution installs.
struct DoctorProbe {
    let connection: DBusConnection

    private static let busName = "org.freedesktop.DBus"
    private static let busPath: DBusObjectPath = "/org/freedesktop/DBus"

    /// The whole report; `app` adds that app's settings.
    func report(app: String?) async -> DoctorReport {
        var report = DoctorReport()
        report.serviceFile = Self.serviceFile()
        report.systemdUnit = Self.systemdUnit()
        report.notifySend = Self.notifySend()
        report.daemon.activatable = await activatableNames().contains(BridgeAPI.busName)
        report.daemon.running = await hasOwner(BridgeAPI.busName)
        if !report.daemon.running, !report.daemon.activatable {
            report.problems.append(
                "notification-bridged is not running and D-Bus cannot start it: install its D-Bus "
                    + "service file (make install, or the package), or start notification-bridged in the session")
        }
        report.portal = await portal()
        report.problems += Self.portalProblems(report.portal)

        let proxy = BridgeProxy(connection: connection)
        // Asking starts the daemon when D-Bus can: what a notification would do too.
        guard let entries = try? await proxy.serverInformation() else {
            if report.daemon.running || report.daemon.activatable {
                report.problems.append(
                    "notification-bridged does not answer: see its log (journalctl --user -u "
                        + "notification-bridged), or run it in a terminal with --log-level debug")
            }
            return report
        }
        report.daemon.running = true
        report.daemon.version = entries[ServerInformationKeys.bridgeVersion]
        // The daemon says who it takes this shell for: what a Post from here would be judged as.
        report.caller = entries[ServerInformationKeys.caller]
        if entries[ServerInformationKeys.callerIdentified] == false, let caller = report.caller {
            report.problems.append(
                "notification-bridged takes this shell for \(caller), so it refuses its posts: run the app from the "
                    + "host, or fix its sandbox; the daemon's log (--log-level debug) says what it could not read")
        }
        if let pid = await processID(of: BridgeAPI.busName) {
            report.daemon.pid = pid
            let environment = Self.environment(of: pid)
            report.daemon.startedBy = Self.startedBy(environment)
            report.actions = Self.actions(entries, display: environment.flatMap(Self.display))
        } else {
            report.actions = Self.actions(entries, display: nil)
        }
        let server = Self.server(entries)
        report.server = server
        report.activeFocus = try? await Self.activeFocus(proxy)
        if let state = try? await proxy.desktopDoNotDisturb() {
            report.desktopDoNotDisturb = state
            if state.isOn {
                report.problems.append(
                    "the desktop's do-not-disturb (\(state.source)) is on: critical notifications go through, "
                        + "time-sensitive ones " + NotificationInterruptionLevel.timeSensitiveRule
                        + " (notification-bridge settings APP --time-sensitive on), and the others wait until it is "
                        + "turned off")
            }
        }
        if server.name.isEmpty {
            report.problems.append(
                "no notification server runs on the session bus: start the desktop's own, or "
                    + "dunst, mako, xfce4-notifyd…; until then nothing can be shown")
        }
        if let actions = report.actions {
            if !actions.buttons, !server.name.isEmpty {
                report.problems.append(
                    "\(server.name) shows no action buttons: notifications show, but their actions "
                        + "cannot be chosen on this server")
            }
            if !actions.inlineReply, let program = actions.promptProgram, !actions.promptAvailable {
                report.problems.append(
                    "the prompt program \(program) cannot show a window: the daemon has neither "
                        + "WAYLAND_DISPLAY nor DISPLAY. Run "
                        + "'systemctl --user import-environment WAYLAND_DISPLAY DISPLAY' "
                        + "and restart notification-bridged, or give it --prompt-command")
            }
            if !actions.inlineReply, actions.promptProgram == nil {
                report.problems.append(
                    "typed replies cannot be asked for: the server has no inline reply and no "
                        + "prompt program is installed; install zenity, kdialog or yad")
            }
        }
        if let app, let record = try? await proxy.settings(app: app) {
            report.settingsApp = record.app
            let settings = record.settings
            report.settings = [
                (SettingsKeys.allowed.name, settings.isAllowed ? "yes" : "no"),
                (SettingsKeys.style.name, settings.style.rawValue),
                (SettingsKeys.sound.name, settings.playsSound ? "on" : "off"),
                (SettingsKeys.badge.name, settings.showsBadge ? "on" : "off"),
                (SettingsKeys.lockScreen.name, settings.lockScreen.rawValue),
                (SettingsKeys.timeSensitive.name, settings.allowsTimeSensitive ? "on" : "off"),
                (SettingsKeys.critical.name, SettingsCommand.criticalText(settings.allowsCritical)),
                (SettingsKeys.doNotDisturb.name, record.doNotDisturb ? "on" : "off"),
            ]
            if !settings.isAllowed {
                report.problems.append(
                    "\(record.app)'s notifications are turned off: notification-bridge settings "
                        + "\(record.app) --allow")
            } else if settings.style.rawValue == "none" {
                report.problems.append(
                    "\(record.app)'s notifications show no popup (style none): notification-bridge "
                        + "settings \(record.app) --style banner")
            }
            if record.doNotDisturb {
                report.problems.append(
                    "do not disturb is on: only critical notifications pop up"
                        + (settings.allowsTimeSensitive ? ", and this app's time-sensitive ones" : "")
                        + "; notification-bridge settings --do-not-disturb off")
            }
        }
        return report
    }

    // MARK: The daemon's answers

    private static func strings(_ value: DBusValue?) -> [String] {
        guard case .array(_, let values)? = value?.unwrappedVariant else { return [] }
        return values.compactMap(\.stringValue)
    }

    private static func server(_ entries: WireEntries) -> DoctorReport.Server {
        DoctorReport.Server(
            name: entries[ServerInformationKeys.serverName] ?? "",
            vendor: entries[ServerInformationKeys.serverVendor] ?? "",
            version: entries[ServerInformationKeys.serverVersion] ?? "",
            specVersion: entries[ServerInformationKeys.serverSpecVersion] ?? "",
            capabilities: entries[ServerInformationKeys.serverCapabilities] ?? [],
            quirks: entries[ServerInformationKeys.serverQuirks] ?? [])
    }

    private static func actions(_ entries: WireEntries, display: String?) -> DoctorReport.Actions {
        let capabilities = entries[ServerInformationKeys.serverCapabilities] ?? []
        let program = entries[ServerInformationKeys.promptProgram] ?? ""
        return DoctorReport.Actions(
            buttons: capabilities.contains("actions"), inlineReply: capabilities.contains("inline-reply"),
            textInput: entries[ServerInformationKeys.textInput] ?? [:], promptProgram: program.isEmpty ? nil : program,
            promptAvailable: entries[ServerInformationKeys.promptAvailable] == true, promptDisplay: display)
    }

    // MARK: The bus

    private func busCall(_ method: String, _ arguments: [DBusValue] = []) async -> [DBusValue]? {
        try? await connection.call(
            destination: Self.busName, path: Self.busPath, interface: Self.busName, method: method,
            arguments: arguments, timeout: .seconds(5))
    }

    private func hasOwner(_ name: String) async -> Bool {
        await busCall("NameHasOwner", [.string(name)])?.first == .boolean(true)
    }

    private func activatableNames() async -> [String] {
        Self.strings(await busCall("ListActivatableNames")?.first)
    }

    private func processID(of name: String) async -> UInt32? {
        guard case .uint32(let pid)? = await busCall("GetConnectionUnixProcessID", [.string(name)])?.first else {
            return nil
        }
        return pid
    }

    /// The notification portal as a sandboxed app meets it: what it advertises, what reaches the desktop (the
    /// backend's own version where the bus shows it), and whether typed text can be asked for here.
    private func portal() async -> DoctorReport.Portal {
        var portal = DoctorReport.Portal()
        portal.sandboxed = access("/.flatpak-info", F_OK) == 0 || getenv("SNAP") != nil
        guard portal.sandboxed else { return portal }
        portal.available = await hasOwner(PortalInfo.busName)
        portal.promptProgram = ["zenity", "kdialog", "yad"].first { ExecRule.resolve($0) != nil }
        portal.display = ["WAYLAND_DISPLAY", "DISPLAY"].lazy.compactMap(Self.variable).first
        guard let info = try? await PortalInfo.read(on: connection, timeout: .seconds(5)) else { return portal }
        portal.version = info.version
        portal.deliveredVersion = info.deliveredVersion
        portal.backendVersion = info.backendVersion
        portal.listsOptions = !info.supportedOptions.isEmpty
        portal.notDelivered = info.notDelivered
        portal.repliesWithText = info.repliesWithText
        return portal
    }

    /// What is wrong with the portal path: no portal, or typed text that cannot be asked for.
    static func portalProblems(_ portal: DoctorReport.Portal) -> [String] {
        guard portal.sandboxed else { return [] }
        guard portal.available, portal.version != nil else {
            return [
                "no notification portal answers in this sandbox, so its notifications go nowhere: install "
                    + "xdg-desktop-portal and the desktop's backend (xdg-desktop-portal-gtk, -gnome or -kde) on the "
                    + "host"
            ]
        }
        if portal.repliesWithText { return [] }
        let delivered = portal.deliveredVersion ?? 1
        let desktop =
            delivered < portal.version ?? 0
            ? "the portal advertises reply fields, but this desktop's backend takes version \(delivered)'s keys, "
                + "which have none"
            : "this desktop shows no reply field"
        guard let program = portal.promptProgram else {
            return [
                "typed replies cannot be asked for in this sandbox: \(desktop), and no zenity, kdialog or yad is "
                    + "in the sandbox; ship one with the app or set its promptCommand, or text-input actions follow "
                    + "their fallback"
            ]
        }
        guard portal.display != nil else {
            return [
                "typed replies cannot be asked for in this sandbox: \(desktop), and \(program) has no display; "
                    + "give the sandbox --socket=wayland or --socket=fallback-x11"
            ]
        }
        return []
    }

    // MARK: The daemon's process

    /// The environment the process was started with, when it can be read (the same user's process).
    static func environment(of pid: UInt32) -> [String: String]? {
        guard let file = fopen("/proc/\(pid)/environ", "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        var environment: [String: String] = [:]
        for entry in bytes.split(separator: 0) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            environment[String(decoding: entry[..<equals], as: UTF8.self)] =
                String(decoding: entry[(equals + 1)...], as: UTF8.self)
        }
        return environment
    }

    /// How the daemon was started: systemd sets `INVOCATION_ID`, a bus that activates a service
    /// `DBUS_STARTER_BUS_TYPE`.
    static func startedBy(_ environment: [String: String]?) -> String? {
        guard let environment else { return nil }
        if environment["INVOCATION_ID"] != nil { return "systemd (notification-bridged.service)" }
        if environment["DBUS_STARTER_BUS_TYPE"] != nil || environment["DBUS_STARTER_ADDRESS"] != nil {
            return "D-Bus activation"
        }
        return "hand (a command line)"
    }

    /// The display of an environment: `WAYLAND_DISPLAY`, else `DISPLAY`.
    static func display(_ environment: [String: String]) -> String? {
        ["WAYLAND_DISPLAY", "DISPLAY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    // MARK: Installed files

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The D-Bus service file the session bus reads, in the data folders it searches.
    static func serviceFile() -> String? {
        let home = variable("HOME") ?? ""
        let dataHome = variable("XDG_DATA_HOME") ?? home + "/.local/share"
        let dataDirectories = (variable("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":")
        let folders = [dataHome] + dataDirectories.map(String.init)
        return folders.map { $0 + "/dbus-1/services/io.github.NotificationBridge.service" }
            .first { access($0, R_OK) == 0 }
    }

    /// The `notify-send` a script would run, and whether it is this program (a link to it).
    static func notifySend() -> (path: String, isBridge: Bool)? {
        guard let path = ExecRule.resolve(NotifySend.programName) else { return nil }
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &resolved) != nil, let own = ExecFilter.ownPath() else { return (path, false) }
        let target = String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (path, target == own)
    }

    /// The systemd user unit, in the folders `systemd --user` reads.
    static func systemdUnit() -> String? {
        let home = variable("HOME") ?? ""
        let configHome = variable("XDG_CONFIG_HOME") ?? home + "/.config"
        let folders = [
            configHome + "/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user",
            "/usr/local/share/systemd/user", "/usr/share/systemd/user",
        ]
        return folders.map { $0 + "/notification-bridged.service" }.first { access($0, R_OK) == 0 }
    }
}

extension DoctorProbe {
    /// The daemon's `ActiveFocus` property; `nil` when it is not a dictionary.
    static func activeFocus(_ proxy: BridgeProxy) async throws -> ActiveFocusState? {
        let reply = try await proxy.connection.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: "org.freedesktop.DBus.Properties",
            method: "Get", arguments: [.string(BridgeAPI.interfaceName), .string(BridgeProperty.activeFocus.name)],
            timeout: proxy.timeout)
        return reply.first.flatMap { ActiveFocusState($0.unwrappedVariant) }
    }
}
