import ArgumentParser
import NotificationBridgeAPI
import NotificationModel

/// `settings [APP] [changes]`: the user's notification settings, per app, as iOS's Settings → Notifications gives
/// them.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change the notification settings of an app, or list every app's.",
        discussion: """
            Without APP and options: every app that has posted, one line each (app, allowed or denied, style, \
            sound, badge, lock screen, time-sensitive), after a line with do-not-disturb. With APP: its settings, after any change \
            the options make. An app is named by its desktop id when it posts with one, else by its app name. \
            Under GNOME the settings are GNOME's own (its Settings app shows the same); elsewhere they are kept in \
            $XDG_CONFIG_HOME/notification-bridge/settings.ini, which may also be edited by hand. JSON: the app's \
            settings as an object; the listing as an object with do-not-disturb, source and apps.
            """)

    @Argument(help: "The app: its desktop id, or the app name it posts under.")
    var app: String?

    @Flag(name: .customLong("allow"), help: "Show the app's notifications.")
    var allow = false

    @Flag(name: .customLong("deny"), help: "Show none of the app's notifications; its posts are refused.")
    var deny = false

    @Option(
        help: ArgumentHelp(
            "alert: stays until acted on; banner: goes away by itself; none: no popup.", valueName: "alert|banner|none")
    )
    var style: String?

    @Option(help: ArgumentHelp("Whether its notifications may play a sound.", valueName: "on|off"))
    var sound: String?

    @Option(help: ArgumentHelp("Whether it may show a count on its icon.", valueName: "on|off"))
    var badge: String?

    @Option(
        name: .customLong(SettingsKeys.lockScreen.name),
        help: ArgumentHelp(
            "While the session is locked: show, hide, or private (a neutral line instead of the text).",
            valueName: "show|hide|private"))
    var lockScreen: String?

    @Option(
        name: .customLong(SettingsKeys.timeSensitive.name),
        help: ArgumentHelp(
            "Whether its time-sensitive notifications go through do-not-disturb (off by default).",
            valueName: "on|off"))
    var timeSensitive: String?

    @Option(
        name: .customLong(SettingsKeys.critical.name),
        help: ArgumentHelp(
            "Whether its critical notifications are taken as critical, through every do-not-disturb; without it they "
                + "are delivered as time-sensitive (on for host programs, off for sandboxed apps, until set).",
            valueName: "on|off"))
    var critical: String?

    @Option(
        name: .customLong(SettingsKeys.snooze.name),
        help: ArgumentHelp("Whether its notifications may offer snooze buttons.", valueName: "on|off"))
    var snooze: String?

    @Option(
        name: .customLong(SettingsKeys.floodLimit.name),
        help: ArgumentHelp(
            "How many of its notifications (of one of its threads) are shown within how long, such as 10/10s or "
                + "30/1m; the excess is folded into one notification that counts them (off, the default: every one "
                + "is shown).",
            valueName: "N/Ts|off"))
    var floodLimit: String?

    @Option(
        name: .customLong(SettingsKeys.doNotDisturb.name),
        help: ArgumentHelp(
            "Do not disturb, for every app: no popups but critical ones, and time-sensitive ones of the apps "
                + "allowed them.",
            valueName: "on|off"))
    var doNotDisturb: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        _ = try change()
        if allow, deny { throw ValidationError("--allow and --deny both given; choose one") }
        var appChange = try change()
        appChange.doNotDisturb = nil
        if app == nil, !appChange.isEmpty {
            throw ValidationError("name the app whose settings to change (notification-bridge settings lists them)")
        }
        if let app, app.isEmpty { throw ValidationError("APP is empty; give a desktop id or an app name") }
    }

    /// The change the options ask for.
    func change() throws -> SettingsChange {
        var change = SettingsChange()
        if allow { change.isAllowed = true }
        if deny { change.isAllowed = false }
        change.style = try choice(style, "--style")
        change.lockScreen = try choice(lockScreen, "--lock-screen")
        change.playsSound = try onOff(sound, "--sound")
        change.showsBadge = try onOff(badge, "--badge")
        change.allowsTimeSensitive = try onOff(timeSensitive, "--time-sensitive")
        change.allowsSnooze = try onOff(snooze, "--snooze")
        change.allowsCritical = try onOff(critical, "--critical")
        if let floodLimit {
            do throws(FloodLimitError) {
                change.floodLimit = try FloodLimit.parse(floodLimit)
            } catch {
                throw ValidationError("--\(SettingsKeys.floodLimit.name): \(error.description)")
            }
        }
        change.doNotDisturb = try onOff(doNotDisturb, "--do-not-disturb")
        return change
    }

    func run() async throws {
        let client = try await BridgeClient.connect()
        let change = try change()
        if !change.isEmpty {
            try await client.call { try await $0.setSettings(app: app ?? "", change) }
        }
        if let app {
            let record = try await client.call { try await $0.settings(app: app) }
            if output.json {
                Output.printJSON(Output.json(record.entries.value))
            } else {
                Self.printDetails(record)
            }
            return
        }
        let records = try await client.call { try await $0.listSettings() }
        let global = try await client.call { try await $0.settings(app: "") }
        if output.json {
            var listing = WireEntries()
            listing[SettingsKeys.doNotDisturb] = global.doNotDisturb
            listing[SettingsKeys.source] = global.source
            guard case .object(var members) = Output.json(listing.value) else { return }
            members["apps"] = .array(records.map { Output.json($0.entries.value) })
            Output.printJSON(.object(members))
            return
        }
        print(
            "\(SettingsKeys.doNotDisturb.name)\t\(global.doNotDisturb ? "on" : "off")\t(\(Self.place(global.source)))")
        for record in records { print(Self.line(record)) }
    }

    private static func place(_ source: SettingsSource) -> String {
        switch source {
        case .gnome: "GNOME's settings"
        case .file: "the bridge's settings file"
        }
    }

    private static func line(_ record: AppSettingsRecord) -> String {
        let settings = record.settings
        return [
            record.app, settings.isAllowed ? SettingsKeys.allowed.name : "denied", "style " + settings.style.rawValue,
            "sound " + onOffText(settings.playsSound), "badge " + onOffText(settings.showsBadge),
            SettingsKeys.lockScreen.name + " " + settings.lockScreen.rawValue,
            SettingsKeys.timeSensitive.name + " " + onOffText(settings.allowsTimeSensitive),
        ].joined(separator: "\t")
    }

    private static func printDetails(_ record: AppSettingsRecord) {
        let settings = record.settings
        print("app: \(record.app)")
        print("allowed: \(settings.isAllowed ? "yes" : "no")")
        print("style: \(settings.style.rawValue)")
        print("sound: \(onOffText(settings.playsSound))")
        print("badge: \(onOffText(settings.showsBadge))")
        print("\(SettingsKeys.lockScreen.name): \(settings.lockScreen.rawValue)")
        print("\(SettingsKeys.timeSensitive.name): \(onOffText(settings.allowsTimeSensitive))")
        print("\(SettingsKeys.critical.name): \(criticalText(settings.allowsCritical))")
        print("\(SettingsKeys.snooze.name): \(onOffText(settings.allowsSnooze))")
        print("\(SettingsKeys.floodLimit.name): \(settings.floodLimit)")
        if let requested = record.requested {
            print("requested: \(requested.names.isEmpty ? "nothing" : requested.names.joined(separator: ", "))")
        }
        print("\(SettingsKeys.doNotDisturb.name): \(onOffText(record.doNotDisturb))")
        print("kept in: \(place(record.source))")
    }

    private static func onOffText(_ flag: Bool) -> String { flag ? "on" : "off" }

    /// The critical permission, or what it is by default when the user has not set it.
    static func criticalText(_ flag: Bool?) -> String {
        flag.map(onOffText) ?? "default (on for a host program, off for a sandboxed app)"
    }
}

private func onOff(_ text: String?, _ option: String) throws -> Bool? {
    switch text {
    case nil: return nil
    case "on": return true
    case "off": return false
    case let other?: throw ValidationError("\(option) takes on or off, not '\(other)'")
    }
}

private func choice<Choice: RawRepresentable & CaseIterable>(_ text: String?, _ option: String) throws -> Choice?
where Choice.RawValue == String {
    guard let text else { return nil }
    guard let value = Choice(rawValue: text) else {
        let names = Choice.allCases.map(\.rawValue)
        throw ValidationError(
            "\(option) takes \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not '\(text)'")
    }
    return value
}
