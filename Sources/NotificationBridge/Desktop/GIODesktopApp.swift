internal import CGIO
import ProcessSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place that uses GIO: reading desktop files and launching their `Exec=` command.
///
/// Everything here blocks (file reads, `fork`), so callers run it on a ``DesktopWorkerThread``. GIO objects never
/// leave the function that made them.
enum GIODesktopApp {
    /// What ``launchUnlessDBusActivatable(desktopEntry:directories:token:)`` did.
    enum Outcome: Sendable, Equatable {
        /// The desktop file says `DBusActivatable=true`: nothing was started; activate it over D-Bus.
        case dbusActivatable
        /// The `Exec=` command was started.
        case launched
        /// No desktop file was found (or GIO refused it: `Hidden=true`, a failing `TryExec=`).
        case notFound
        /// GIO could not start the command; the text is GIO's message.
        case failed(String)
    }

    /// Whether the desktop file for `id` says `DBusActivatable=true`; `nil` when there is no desktop file.
    static func isDBusActivatable(desktopEntry id: String, directories: [String]?) -> Bool? {
        guard let info = open(id, directories) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return g_desktop_app_info_get_boolean(info, "DBusActivatable") != 0
    }

    /// Finds the desktop file for `id`; unless it is D-Bus activatable, starts its command with the activation token
    /// in `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID`.
    ///
    /// - Parameter directories: folders holding desktop files, searched in order for `<id>.desktop`; `nil` uses
    ///   GIO's lookup through `XDG_DATA_HOME` and `XDG_DATA_DIRS`.
    static func launchUnlessDBusActivatable(desktopEntry id: String, directories: [String]?, token: String?)
        -> Outcome
    {
        guard let info = open(id, directories) else { return .notFound }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        if g_desktop_app_info_get_boolean(info, "DBusActivatable") != 0 { return .dbusActivatable }

        let context = g_app_launch_context_new()
        defer { g_object_unref(context) }
        if let token, !token.isEmpty {
            g_app_launch_context_setenv(context, "XDG_ACTIVATION_TOKEN", token)
            g_app_launch_context_setenv(context, "DESKTOP_STARTUP_ID", token)
        }
        var error: UnsafeMutablePointer<GError>?
        // Without G_SPAWN_DO_NOT_REAP_CHILD GLib forks twice, so the app is never left a zombie of this process.
        let launched = g_desktop_app_info_launch_uris_as_manager(
            info, nil, context, G_SPAWN_SEARCH_PATH, resetSignalsInChild, nil, nil, nil, &error)
        if launched != 0 { return .launched }
        defer { if error != nil { g_error_free(error) } }
        return .failed(error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown GIO error")
    }

    /// Runs in the child between `fork` and `exec`: only async-signal-safe calls. The launching thread inherits the
    /// mask of Swift's cooperative threads, which block most signals; the app must not keep that mask (SIGTERM could
    /// not stop it), nor an ignored SIGPIPE.
    private static let resetSignalsInChild: GSpawnChildSetupFunc = { _ in
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGPIPE, SIG_DFL)
    }

    private static func open(_ id: String, _ directories: [String]?) -> OpaquePointer? {
        guard let directories else { return g_desktop_app_info_new(id + ".desktop") }
        for directory in directories {
            let path = directory.hasSuffix("/") ? directory + id + ".desktop" : directory + "/" + id + ".desktop"
            if let info = g_desktop_app_info_new_from_filename(path) { return info }
        }
        return nil
    }
}
