internal import CGIO
import NotificationBridgeAPI
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// GNOME's notification settings in GSettings, the keys GNOME Shell obeys and GNOME's Settings app shows:
/// `org.gnome.desktop.notifications` (`show-banners`: off is GNOME's do-not-disturb; `show-in-lock-screen`;
/// `application-children`, the apps listed) and, per app, the relocatable `org.gnome.desktop.notifications.application`
/// at `/org/gnome/desktop/notifications/application/<id>/`.
///
/// Lives on a ``GLibLoopThread``: its `GSettings` objects emit `changed` on the main context they were made in.
final class GNOMENotificationKeys {
    static let schemaID = "org.gnome.desktop.notifications"
    static let applicationSchemaID = "org.gnome.desktop.notifications.application"
    static let applicationPathPrefix = "/org/gnome/desktop/notifications/application/"

    private let backend: UnsafeMutablePointer<GSettingsBackend>?
    private let global: UnsafeMutablePointer<GSettings>
    /// Each app's `GSettings`, by the app's id in GNOME's keys.
    private var applications: [String: UnsafeMutablePointer<GSettings>] = [:]
    private let changed: (String?) -> Void

    /// Whether GNOME's schemas are installed.
    static var isInstalled: Bool {
        guard let source = g_settings_schema_source_get_default() else { return false }
        for id in [schemaID, applicationSchemaID] {
            guard let schema = g_settings_schema_source_lookup(source, id, 1) else { return false }
            g_settings_schema_unref(schema)
        }
        return true
    }

    /// Opens the keys and follows them.
    ///
    /// - Parameter changed: called on the loop's thread with the app (as the bridge names it) whose keys changed, or
    ///   `nil` for the global keys.
    init(backend choice: GSettingsStorage, changed: @escaping (String?) -> Void) {
        switch choice {
        case .standard: backend = nil
        case .keyFile(let path): backend = g_keyfile_settings_backend_new(path, "/", nil)
        case .memory: backend = g_memory_settings_backend_new()
        }
        self.changed = changed
        let schema = g_settings_schema_source_lookup(g_settings_schema_source_get_default(), Self.schemaID, 1)
        defer { g_settings_schema_unref(schema) }
        global = g_settings_new_full(schema, backend, nil)
        connect(global)
        for id in children { _ = application(id) }
    }

    /// Releases every `GSettings` (on the loop's thread).
    func close() {
        for settings in applications.values + [global] {
            g_signal_handlers_disconnect_matched(
                settings, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, Unmanaged.passUnretained(self).toOpaque())
            g_object_unref(settings)
        }
        applications = [:]
        if let backend { g_object_unref(backend) }
    }

    /// GNOME's id for an app: lower case, every character other than a letter, a digit or `-` made `-`, no two `-`
    /// in a row (as GNOME Shell makes the ids it stores).
    static func id(of app: String) -> String {
        var id = ""
        for character in app.lowercased() {
            let kept = character.isASCII && (character.isLetter || character.isNumber || character == "-")
            let next: Character = kept ? character : "-"
            if next == "-", id.last == "-" { continue }
            id.append(next)
        }
        return id
    }

    /// GNOME's do-not-disturb: `show-banners` off.
    var doNotDisturb: Bool {
        get { !g_settings_get_boolean(global, "show-banners").isTrue }
        set { g_settings_set_boolean(global, "show-banners", newValue ? 0 : 1) }
    }

    /// Whether GNOME shows notifications on the lock screen at all.
    var showsInLockScreen: Bool { g_settings_get_boolean(global, "show-in-lock-screen").isTrue }

    /// The apps GNOME lists, as the bridge names them: the desktop id GNOME stored for each, else its GNOME id.
    var apps: [String] {
        children.map { id in
            guard let settings = application(id), let value = g_settings_get_string(settings, "application-id") else {
                return id
            }
            defer { g_free(value) }
            let desktopID = String(cString: value)
            guard desktopID.hasSuffix(".desktop") else { return id }
            return String(desktopID.dropLast(".desktop".count))
        }
    }

    /// The settings GNOME keeps for `app` (its badge is not among them).
    func settings(of app: String) -> AppNotificationSettings {
        guard let settings = application(Self.id(of: app)) else { return AppNotificationSettings() }
        let flag = { (key: String) in g_settings_get_boolean(settings, key).isTrue }
        let style: NotificationAlertStyle =
            !flag("show-banners") ? .none : flag("force-expanded") ? .alert : .banner
        let lockScreen: LockScreenVisibility =
            !flag("show-in-lock-screen") ? .hide : flag("details-in-lock-screen") ? .show : .private
        return AppNotificationSettings(
            isAllowed: flag("enable"), style: style, playsSound: flag("enable-sound-alerts"), lockScreen: lockScreen)
    }

    /// Writes the fields of `change` that GNOME keeps, and lists the app as GNOME Shell does.
    func apply(_ change: SettingsChange, to app: String) {
        note(app)
        guard let settings = application(Self.id(of: app)) else { return }
        let set = { (key: String, value: Bool) in _ = g_settings_set_boolean(settings, key, value ? 1 : 0) }
        g_settings_delay(settings)
        if let value = change.isAllowed { set("enable", value) }
        if let value = change.playsSound { set("enable-sound-alerts", value) }
        if let style = change.style {
            set("show-banners", style != .none)
            set("force-expanded", style == .alert)
        }
        if let lockScreen = change.lockScreen {
            set("show-in-lock-screen", lockScreen != .hide)
            set("details-in-lock-screen", lockScreen == .show)
        }
        g_settings_apply(settings)
    }

    /// Lists `app` under `application-children`, with its desktop id, as GNOME Shell does for an app that notifies.
    func note(_ app: String) {
        let id = Self.id(of: app)
        var list = children
        guard let settings = application(id) else { return }
        if let value = g_settings_get_string(settings, "application-id") {
            defer { g_free(value) }
            if String(cString: value).isEmpty { g_settings_set_string(settings, "application-id", app + ".desktop") }
        }
        guard !list.contains(id) else { return }
        list.append(id)
        withStringArray(list) { _ = g_settings_set_strv(global, "application-children", $0) }
    }

    private var children: [String] {
        takeStrings(g_settings_get_strv(global, "application-children"))
    }

    private func application(_ id: String) -> UnsafeMutablePointer<GSettings>? {
        if let settings = applications[id] { return settings }
        // Not a path GSettings takes (an empty id): nothing is kept for it.
        guard !id.isEmpty else { return nil }
        let schema = g_settings_schema_source_lookup(
            g_settings_schema_source_get_default(), Self.applicationSchemaID, 1)
        defer { g_settings_schema_unref(schema) }
        guard let settings = g_settings_new_full(schema, backend, Self.applicationPathPrefix + id + "/") else {
            return nil
        }
        applications[id] = settings
        connect(settings)
        // GSettings emits `changed` only for keys that were read since it was made.
        for key in [
            "enable", "enable-sound-alerts", "show-banners", "force-expanded", "show-in-lock-screen",
            "details-in-lock-screen", "application-id",
        ] {
            if let value = g_settings_get_value(settings, key) { g_variant_unref(value) }
        }
        return settings
    }

    private func connect(_ settings: UnsafeMutablePointer<GSettings>) {
        let handler:
            @convention(c) (UnsafeMutablePointer<GSettings>?, UnsafePointer<gchar>?, UnsafeMutableRawPointer?)
                -> Void = { settings, key, context in
                    guard let settings, let context else { return }
                    Unmanaged<GNOMENotificationKeys>.fromOpaque(context).takeUnretainedValue().keyChanged(settings, key)
                }
        g_signal_connect_data(
            settings, "changed", unsafeBitCast(handler, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
        if settings == global {
            for key in ["show-banners", "show-in-lock-screen", "application-children"] {
                if let value = g_settings_get_value(settings, key) { g_variant_unref(value) }
            }
        }
    }

    private func keyChanged(_ settings: UnsafeMutablePointer<GSettings>, _ key: UnsafePointer<gchar>?) {
        let key = key.map { String(cString: $0) }
        if settings == global {
            // A new app in the list is no change of settings: it is only followed from now on.
            guard key == "application-children" else { return changed(nil) }
            for id in children where applications[id] == nil { _ = application(id) }
            return
        }
        guard key != "application-id", let id = applications.first(where: { $0.value == settings })?.key else {
            return
        }
        changed(apps.first { Self.id(of: $0) == id } ?? id)
    }
}
