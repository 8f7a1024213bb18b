internal import CGIO
import NotificationBridgeAPI
import NotificationModel

/// The bridge's own settings file, a GLib key file a person can read and edit, followed while the program runs:
///
/// ```ini
/// [global]
/// do-not-disturb=false
///
/// [app org.example.Mail]
/// allowed=true
/// style=banner
///
/// [focus sleep]
/// allow-apps=org.example.Doorbell;
/// schedules=every-day 22:00-07:00;
/// ```
///
/// Lives on a ``GLibLoopThread``: made, used and released only by work given to it. The file is watched with a
/// `GFileMonitor` (editors that replace the file are seen too); every change reloads it and reports what differs.
final class SettingsKeyFile {
    static let globalGroup = "global"
    static let appGroupPrefix = "app "
    static let focusGroupPrefix = "focus "

    let path: String
    private(set) var contents = StoredSettings()
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private let changed: (StoredSettings, StoredSettings) -> Void
    private let warn: (String) -> Void

    /// Reads the file (a missing one holds nothing) and starts watching it.
    ///
    /// - Parameters:
    ///   - changed: called on the loop's thread with the contents before and after a change made by someone else.
    ///   - warn: called with a message for each entry that cannot be read (it is ignored).
    init(path: String, changed: @escaping (StoredSettings, StoredSettings) -> Void, warn: @escaping (String) -> Void) {
        self.path = path
        self.changed = changed
        self.warn = warn
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if !directory.isEmpty { g_mkdir_with_parents(directory, 0o700) }
        contents = read()
        // The local file system's GVfs, not the default one: where gvfs is installed, the default connects to the
        // session bus and starts gvfsd there, a process and a connection for nothing but watching a local file.
        let file = g_vfs_get_file_for_path(g_vfs_get_local(), path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        monitor = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil)
        if let monitor {
            let context = Unmanaged.passUnretained(self).toOpaque()
            let handler:
                @convention(c) (
                    UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, GFileMonitorEvent,
                    UnsafeMutableRawPointer?
                ) -> Void = { _, _, _, event, context in
                    guard event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED, let context else { return }
                    Unmanaged<SettingsKeyFile>.fromOpaque(context).takeUnretainedValue().reload()
                }
            g_signal_connect_data(
                monitor, "changed", unsafeBitCast(handler, to: GCallback.self), context, nil, GConnectFlags(0))
        }
    }

    /// Stops watching; call before the last reference goes (on the loop's thread).
    func close() {
        guard let monitor else { return }
        g_file_monitor_cancel(monitor)
        g_signal_handlers_disconnect_matched(
            monitor, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, Unmanaged.passUnretained(self).toOpaque())
        g_object_unref(monitor)
        self.monitor = nil
    }

    /// Reads the file again, and reports what differs.
    func reload() {
        let before = contents
        contents = read()
        if contents != before { changed(before, contents) }
    }

    /// Changes the contents with `update` and writes the file.
    ///
    /// - Returns: an error message when the file cannot be written.
    func write(_ update: (inout StoredSettings) -> Void) -> String? {
        // An edit by hand that the monitor has not reported yet is read (and reported) first, not overwritten.
        reload()
        let focusBefore = contents.focusModes
        update(&contents)
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        // Comments and unknown entries a person added are kept: the file is loaded again and only these keys set.
        g_key_file_load_from_file(keyFile, path, G_KEY_FILE_KEEP_COMMENTS, nil)
        if let doNotDisturb = contents.doNotDisturb {
            g_key_file_set_string(keyFile, Self.globalGroup, SettingsKeys.doNotDisturb.name, doNotDisturb.keyFileText)
        }
        for (app, stored) in contents.apps.sorted(by: { $0.key < $1.key }) {
            let group = Self.appGroupPrefix + app
            func set(_ key: String, _ value: String?) {
                if let value { g_key_file_set_string(keyFile, group, key, value) }
            }
            set(SettingsKeys.allowed.name, stored.isAllowed?.keyFileText)
            set(SettingsKeys.style.name, stored.style?.rawValue)
            set(SettingsKeys.sound.name, stored.playsSound?.keyFileText)
            set(SettingsKeys.badge.name, stored.showsBadge?.keyFileText)
            set(SettingsKeys.lockScreen.name, stored.lockScreen?.rawValue)
            set(SettingsKeys.timeSensitive.name, stored.allowsTimeSensitive?.keyFileText)
            set(SettingsKeys.snooze.name, stored.allowsSnooze?.keyFileText)
            set(SettingsKeys.critical.name, stored.allowsCritical?.keyFileText)
            set(SettingsKeys.floodLimit.name, stored.floodLimit?.description)
            set(SettingsKeys.requested.name, stored.requested.map { $0.names.joined(separator: ";") })
            // An app noted with nothing set still gets its group, so that listings show it.
            if stored == StoredAppSettings() {
                g_key_file_set_string(keyFile, group, SettingsKeys.allowed.name, true.keyFileText)
                contents.apps[app]?.isAllowed = true
            }
        }
        // Only the modes the change is about: the others stay as the person wrote them.
        for focus in contents.focusModes.values.sorted(by: { $0.name < $1.name }) where focusBefore[focus.name] != focus
        {
            writeFocus(focus, to: keyFile)
        }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_save_to_file(keyFile, path, &error).isTrue else {
            defer { g_error_free(error) }
            return error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
        }
        return nil
    }

    private func read() -> StoredSettings {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, &error).isTrue else {
            var kept = StoredSettings()
            if let error {
                let missing =
                    error.pointee.domain == g_file_error_quark()
                    && error.pointee.code == G_FILE_ERROR_NOENT.rawValue
                if !missing, let message = error.pointee.message {
                    warn("cannot read \(path): \(String(cString: message)); fix it, or remove it to start afresh")
                    // A slip of the pen anywhere in the file must not turn off the focus mode that is on.
                    kept.focusModes = contents.focusModes
                }
                g_error_free(error)
            }
            return kept
        }
        var stored = StoredSettings()
        stored.doNotDisturb = boolean(keyFile, Self.globalGroup, SettingsKeys.doNotDisturb.name)
        for group in takeStrings(g_key_file_get_groups(keyFile, nil)) where group.hasPrefix(Self.appGroupPrefix) {
            let app = String(group.dropFirst(Self.appGroupPrefix.count))
            guard !app.isEmpty else { continue }
            var entry = StoredAppSettings()
            entry.isAllowed = boolean(keyFile, group, SettingsKeys.allowed.name)
            entry.style = choice(keyFile, group, SettingsKeys.style.name)
            entry.playsSound = boolean(keyFile, group, SettingsKeys.sound.name)
            entry.showsBadge = boolean(keyFile, group, SettingsKeys.badge.name)
            entry.lockScreen = choice(keyFile, group, SettingsKeys.lockScreen.name)
            entry.allowsTimeSensitive = boolean(keyFile, group, SettingsKeys.timeSensitive.name)
            entry.allowsSnooze = boolean(keyFile, group, SettingsKeys.snooze.name)
            entry.allowsCritical = boolean(keyFile, group, SettingsKeys.critical.name)
            entry.floodLimit = floodLimit(keyFile, group)
            if let text = string(keyFile, group, SettingsKeys.requested.name) {
                let names = text.split(separator: ";").map { String($0).trimmed }.filter { !$0.isEmpty }
                if let kinds = NotificationKinds(names: names) {
                    entry.requested = kinds
                } else {
                    warn(entryProblem(group, SettingsKeys.requested.name, text, accepted: "alert;sound;badge"))
                }
            }
            stored.apps[app] = entry
        }
        stored.focusModes = readFocus(keyFile)
        return stored
    }

    private func string(_ keyFile: OpaquePointer?, _ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_value(keyFile, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value).trimmed
    }

    private func boolean(_ keyFile: OpaquePointer?, _ group: String, _ key: String) -> Bool? {
        guard let text = string(keyFile, group, key) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default:
            warn(entryProblem(group, key, text, accepted: "true or false"))
            return nil
        }
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(
        _ keyFile: OpaquePointer?, _ group: String, _ key: String
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(keyFile, group, key) else { return nil }
        guard let value = Choice(rawValue: text) else {
            warn(entryProblem(group, key, text, accepted: Choice.allCases.map(\.rawValue).joined(separator: ", ")))
            return nil
        }
        return value
    }

    private func floodLimit(_ keyFile: OpaquePointer?, _ group: String) -> FloodLimit? {
        let key = SettingsKeys.floodLimit.name
        guard let text = string(keyFile, group, key) else { return nil }
        do throws(FloodLimitError) {
            return try FloodLimit.parse(text)
        } catch {
            warn(entryProblem(group, key, text, accepted: "a limit such as 10/10s or 30/1m, or off"))
            return nil
        }
    }

    private func entryProblem(_ group: String, _ key: String, _ text: String, accepted: String) -> String {
        "\(path): [\(group)] \(key)=\(text) is not understood and is ignored; use \(accepted)"
    }
}

extension Bool {
    /// `true` or `false`, as key files write booleans.
    var keyFileText: String { self ? "true" : "false" }
}

extension gboolean {
    /// Whether GLib said yes.
    var isTrue: Bool { self != 0 }
}

extension String {
    /// Without spaces and tabs at either end.
    var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
