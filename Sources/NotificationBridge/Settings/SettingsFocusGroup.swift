/// One `[focus NAME]` group of the settings file, as written: the entries of a focus mode, each with the line it is on,
/// so that whoever reads them as a mode can say where one is wrong and what to write instead.
///
/// ```ini
/// [focus sleep]
/// allow-apps=org.example.Doorbell;
/// allow-threads=org.example.Chat/ann;
/// schedules=every-day 22:00-07:00;
/// ```
///
/// The keys are those of ``NotificationBridgeAPI/FocusModeKeys/settingsFileKeys``; a list is separated by semicolons.
package struct SettingsFocusGroup: Sendable, Hashable {
    /// One `key=value` line of the group.
    package struct Entry: Sendable, Hashable {
        /// The value: the items of a list, or one item for a single value, each without spaces at either end.
        package var values: [String]
        /// The line it is on, from 1; 0 for an entry not yet written.
        package var line: Int

        /// An entry of `values`, on `line`.
        package init(values: [String], line: Int = 0) {
            self.values = values
            self.line = line
        }
    }

    /// The mode's name, from the group's header.
    package var name: String
    /// The line of the group's header, from 1; 0 for a group not yet written.
    package var line: Int
    /// The entries, by key.
    package var entries: [String: Entry]

    /// A group of `entries` for the mode `name`.
    package init(name: String, line: Int = 0, entries: [String: Entry]) {
        self.name = name
        self.line = line
        self.entries = entries
    }

    /// The group's header, as the file writes it.
    package var header: String { "[\(SettingsKeyFile.focusGroupPrefix)\(name)]" }
}

/// Where each group and each key of a key file's text is: GLib reads the file, but says on which line nothing is.
struct KeyFileLines {
    /// The line of each group's header, and of each key in it, from 1.
    private(set) var groups: [String: (line: Int, keys: [String: Int])] = [:]

    /// Finds the lines of `text`, as GLib reads it: a header is `[NAME]`, an entry `KEY=VALUE`; comments and blank
    /// lines are skipped. Where a group or key comes twice, the last counts, as it does for GLib.
    init(_ text: String) {
        var current: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = String(line).trimmed
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                let name = String(trimmed.dropFirst().dropLast())
                current = name
                if groups[name] == nil { groups[name] = (index + 1, [:]) }
            } else if let current, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") {
                groups[current]?.keys[String(trimmed[..<equals]).trimmed] = index + 1
            }
        }
    }
}
