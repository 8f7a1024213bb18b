/// Where a notification's responses go: exactly one place, chosen when it is posted.
enum ResponseRoute: Sendable, Hashable {
    /// The connection that posted it (`Responded` sent to it alone) and any `WaitForResponse` call for its id.
    case poster(String)
    /// A command started with `posix_spawn` (never a shell): argv, program first.
    case command([String])
    /// `org.freedesktop.Application.ActivateAction` on the app with this desktop id; `action` `nil` means the chosen
    /// action's own id.
    case application(desktopEntry: String, action: String?)

    /// A name for logs.
    var kind: String {
        switch self {
        case .poster: "poster"
        case .command: "exec"
        case .application: "app-action"
        }
    }
}
