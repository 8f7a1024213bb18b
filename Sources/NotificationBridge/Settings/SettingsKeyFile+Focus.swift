internal import CGIO
import NotificationBridgeAPI

/// The `[focus NAME]` groups of the settings file: read as they are written, with their lines
/// (``SettingsFocusGroup``), and written back with only the keys of a focus mode changed.
extension SettingsKeyFile {
    /// The focus groups of `keyFile`, loaded from ``path``, by the mode's name.
    func readFocus(_ keyFile: OpaquePointer?) -> [String: SettingsFocusGroup] {
        let groups = takeStrings(g_key_file_get_groups(keyFile, nil)).filter { $0.hasPrefix(Self.focusGroupPrefix) }
        guard !groups.isEmpty else { return [:] }
        let lines = KeyFileLines(fileText() ?? "")
        var modes: [String: SettingsFocusGroup] = [:]
        for group in groups {
            let found = lines.groups[group]
            var entries: [String: SettingsFocusGroup.Entry] = [:]
            for key in takeStrings(g_key_file_get_keys(keyFile, group, nil, nil)) {
                let values = takeStrings(g_key_file_get_string_list(keyFile, group, key, nil, nil))
                    .map(\.trimmed).filter { !$0.isEmpty }
                entries[key] = SettingsFocusGroup.Entry(values: values, line: found?.keys[key] ?? 0)
            }
            let name = String(group.dropFirst(Self.focusGroupPrefix.count))
            modes[name] = SettingsFocusGroup(name: name, line: found?.line ?? 0, entries: entries)
        }
        return modes
    }

    /// Sets the keys of a focus mode in `focus`'s group of `keyFile`: a list as GLib writes lists, a single value as
    /// it is; a key the group does not give is taken out. Other keys and comments stay.
    func writeFocus(_ focus: SettingsFocusGroup, to keyFile: OpaquePointer?) {
        let group = Self.focusGroupPrefix + focus.name
        for key in FocusModeKeys.settingsFileKeys {
            guard let values = focus.entries[key.name]?.values, !values.isEmpty else {
                g_key_file_remove_key(keyFile, group, key.name, nil)
                continue
            }
            if key.types == ["as"] {
                withStringArray(values) {
                    g_key_file_set_string_list(keyFile, group, key.name, $0, gsize(values.count))
                }
            } else {
                g_key_file_set_string(keyFile, group, key.name, values[0])
            }
        }
    }

    /// The file's text, for the lines of its entries; `nil` when it cannot be read.
    private func fileText() -> String? {
        var contents: UnsafeMutablePointer<gchar>?
        guard g_file_get_contents(path, &contents, nil, nil).isTrue, let contents else { return nil }
        defer { g_free(contents) }
        return String(cString: contents)
    }
}
