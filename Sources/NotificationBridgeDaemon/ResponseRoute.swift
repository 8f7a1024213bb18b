import NotificationBridge
import NotificationStore

/// Where a notification's responses go: exactly one place, chosen when it is posted.
enum ResponseRoute: Sendable, Hashable {
    /// The connection that posted it (`Responded` sent to it alone) and any `WaitForResponse` call for its id.
    case poster(String)
    /// A command started with `posix_spawn` (never a shell): argv, program first.
    case command([String])
    /// `org.freedesktop.Application.ActivateAction` on the app with this desktop id; `action` `nil` means the chosen
    /// action's own id. Out of line (`indirect`): a route is then as wide as one string, in every entry of the
    /// daemon's table.
    indirect case application(desktopEntry: String, action: String?)

    /// A name for logs.
    var kind: String {
        switch self {
        case .poster: "poster"
        case .command: "exec"
        case .application: "app-action"
        }
    }

    /// The route as listings show it: `nil` for the posting connection.
    var listed: ResponseRoute? {
        if case .poster = self { return nil }
        return self
    }
}

/// Stored with scheduled notifications: `{"poster": ":1.42"}`, `{"exec": [argv]}` or
/// `{"app-action": {"desktop-entry": …, "action": …}}`.
extension ResponseRoute: Codable {
    private enum CodingKeys: String, CodingKey {
        case poster
        case exec
        case appAction = "app-action"
    }

    private struct Application: Codable {
        var desktopEntry: String
        var action: String?

        enum CodingKeys: String, CodingKey {
            case desktopEntry = "desktop-entry"
            case action
        }
    }

    /// What a stored route with none of its keys lacks.
    private static let noRoute = "a route needs 'poster', 'exec' or 'app-action'"

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let poster = try container.decodeIfPresent(String.self, forKey: .poster) {
            self = .poster(poster)
        } else if let argv = try container.decodeIfPresent([String].self, forKey: .exec) {
            self = .command(argv)
        } else if let application = try container.decodeIfPresent(Application.self, forKey: .appAction) {
            self = .application(desktopEntry: application.desktopEntry, action: application.action)
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: Self.noRoute))
        }
    }

    /// Read by hand, as part of a ``PendingPost``: the same keys as `init(from:)`.
    init(fields: RowFields) throws {
        if let poster = try fields.optionalString(CodingKeys.poster.stringValue) {
            self = .poster(poster)
        } else if let argv = try fields.decodeIfPresent([String].self, CodingKeys.exec.stringValue) {
            self = .command(argv)
        } else if let application = try fields.optionalFields(CodingKeys.appAction.stringValue) {
            self = .application(
                desktopEntry: try application.string(Application.CodingKeys.desktopEntry.stringValue),
                action: try application.optionalString(Application.CodingKeys.action.stringValue))
        } else {
            throw fields.corrupted(Self.noRoute)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .poster(let poster): try container.encode(poster, forKey: .poster)
        case .command(let argv): try container.encode(argv, forKey: .exec)
        case .application(let desktopEntry, let action):
            try container.encode(Application(desktopEntry: desktopEntry, action: action), forKey: .appAction)
        }
    }
}
