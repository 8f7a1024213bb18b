import NotificationBridge
import NotificationBridgeAPI

/// A focus mode as the settings file defines it, in a `[focus NAME]` group (``SettingsFocusGroup``): the keys
/// `ListFocusModes` lists (``FocusModeKeys/settingsFileKeys``), the name in the group's header.
///
/// ```ini
/// [focus sleep]
/// allow-apps=org.example.Doorbell;
/// allow-threads=org.example.Chat/ann;
/// allow-time-sensitive=false
/// schedules=mon-fri 22:00-07:00;sat,sun 23:30-09:00;
/// ```
extension FocusMode {
    /// The mode `group` defines, with what in it cannot be read: each problem names the file (`path`), the line and
    /// what to write instead, and the entry (or the one item of a list) is left out. The mode is `nil` when the
    /// group's name cannot be a mode's.
    static func reading(_ group: SettingsFocusGroup, in path: String) -> (mode: FocusMode?, problems: [String]) {
        var problems: [String] = []
        func problem(_ line: Int, _ key: String?, _ text: String) {
            problems.append("\(path):\(line): [focus \(group.name)]\(key.map { " \($0)" } ?? ""): \(text)")
        }
        var mode: FocusMode
        do throws(FocusError) {
            mode = try FocusMode(name: group.name)
        } catch {
            problem(group.line, nil, "\(error.description); the group is ignored")
            return (nil, problems)
        }
        for (key, entry) in group.entries.sorted(by: { $0.value.line < $1.value.line }) {
            switch key {
            case FocusOptionKeys.allowApps.name:
                mode.breakthrough.apps = Set(entry.values)
            case FocusOptionKeys.allowThreads.name:
                for text in entry.values {
                    guard let thread = FocusRequest.Thread(written: text) else {
                        problem(
                            entry.line, key,
                            "\(quotedForMessage(text)) is not a thread; write each as APP/THREAD, such as "
                                + "org.example.Chat/ann; it is ignored")
                        continue
                    }
                    mode.breakthrough.threads.insert(FocusBreakthrough.Thread(app: thread.app, id: thread.id))
                }
            case FocusModeKeys.timeSensitive.name:
                switch entry.values {
                case ["true"]: mode.breakthrough.timeSensitive = true
                case ["false"]: mode.breakthrough.timeSensitive = false
                default:
                    problem(
                        entry.line, key,
                        "\(quotedForMessage(entry.values.joined(separator: ";"))) is not true or false; write one of "
                            + "them; it is ignored, and time-sensitive ones pass")
                }
            case FocusModeKeys.schedules.name:
                for text in entry.values {
                    do throws(FocusError) {
                        mode.schedules.append(try FocusSchedule(written: text))
                    } catch {
                        problem(entry.line, key, "\(error.description); it is ignored")
                    }
                }
            default:
                let known = FocusModeKeys.settingsFileKeys.map(\.name).joined(separator: ", ")
                problem(entry.line, key, "is not a key of a focus mode; use \(known); it is ignored")
            }
        }
        return (mode, problems)
    }

    /// The group that defines the mode in the settings file: each key it sets, a list with no item left out.
    var settingsGroup: SettingsFocusGroup {
        var entries: [String: SettingsFocusGroup.Entry] = [:]
        func set(_ key: BridgeKeyInfo, _ values: [String]) {
            if !values.isEmpty { entries[key.name] = SettingsFocusGroup.Entry(values: values) }
        }
        set(FocusOptionKeys.allowApps.info, breakthrough.apps.sorted())
        set(
            FocusOptionKeys.allowThreads.info,
            breakthrough.threads.map { FocusRequest.Thread(app: $0.app, id: $0.id).written }.sorted())
        set(FocusModeKeys.timeSensitive.info, [breakthrough.timeSensitive ? "true" : "false"])
        set(FocusModeKeys.schedules.info, schedules.map(\.written))
        return SettingsFocusGroup(name: name, entries: entries)
    }
}
