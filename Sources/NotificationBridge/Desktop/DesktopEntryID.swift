import DBusCore

/// Rules for desktop entry ids (`org.example.App`, the desktop file's name without `.desktop`) and the names derived
/// from them.
enum DesktopEntryID {
    /// The id in canonical form: without a trailing `.desktop`.
    ///
    /// - Throws: ``DesktopIntegrationError/invalidDesktopEntry(_:)`` for an empty id, one containing `/` or NUL, or
    ///   one that starts with `.`: none of these can name a file in an `applications` folder.
    static func validated(_ text: String) throws(DesktopIntegrationError) -> String {
        var id = text
        if id.hasSuffix(".desktop") { id.removeLast(".desktop".count) }
        guard !id.isEmpty, !id.hasPrefix("."), !id.utf8.contains(UInt8(ascii: "/")), !id.utf8.contains(0) else {
            throw .invalidDesktopEntry(text)
        }
        return id
    }

    /// Whether the id can be used as a D-Bus well-known name, as `DBusActivatable` applications must.
    static func isBusName(_ id: String) -> Bool {
        !id.hasPrefix(":") && DBusNames.isValidBusName(id)
    }

    /// The object path of the application's `org.freedesktop.Application` object: `/` + the id with `.` replaced
    /// by `/` and `-` by `_` (Desktop Entry Specification, "D-Bus Activation"); `nil` when the id is not a valid bus
    /// name.
    static func applicationObjectPath(for id: String) -> DBusObjectPath? {
        guard isBusName(id) else { return nil }
        let path = "/" + String(id.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
        return try? DBusObjectPath(path)
    }

    /// The `app_uri` the Unity launcher API uses for the app: `application://org.example.App.desktop`.
    static func launcherURI(for id: String) -> String {
        "application://" + id + ".desktop"
    }
}
