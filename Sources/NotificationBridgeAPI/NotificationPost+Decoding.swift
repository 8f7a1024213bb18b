import DBusCore
import NotificationModel

extension NotificationPost {
    /// Reads a `Post` dictionary, checking every key and how the keys go together.
    ///
    /// - Parameter currentZoneName: the identifier of the user's time zone, which `time-zone` may give as well as
    ///   `'local'`; asked for only when the dictionary has a `time-zone` (finding it reads the system's settings).
    /// - Throws: `InvalidArgument` for anything that is wrong, saying what to change.
    package init(
        decoding value: DBusValue, currentZoneName: @autoclosure () -> String? = nil
    ) throws(DBusFailure) {
        try self.init(
            reading: VariantDictionary(value, place: "notification", keys: PostKeys.all),
            currentZoneName: currentZoneName())
    }

    /// Reads the `Post` keys of a dictionary whose keys `reader` has already checked (a listed notification's,
    /// which adds its own); see ``init(decoding:currentZoneName:)``.
    package init(
        reading reader: VariantDictionary, currentZoneName: @autoclosure () -> String? = nil
    ) throws(DBusFailure) {
        schedule = try PostSchedule(reader, currentZoneName: currentZoneName)
        content = try ContentEntries.content(reader)
        replaces = try reader.decode(PostKeys.replaces)
        fixedID = try reader.decode(PostKeys.fixedID)
        if replaces != nil, fixedID != nil {
            throw BridgeError.invalid(
                "notification has both 'replaces' and 'fixed-id'; 'fixed-id' replaces the "
                    + "notification showing with that id by itself, keep one of them")
        }
        route = try Self.route(reader, content: content)
        // The key 'category' names the bridge's category, never the server's 'category' hint: both may be given.
        hints = try reader.decode(PostKeys.hints) ?? [:]
        ifDoNotDisturb = try reader.decode(PostKeys.ifDoNotDisturb)
    }

    private static func route(_ reader: VariantDictionary, content: NotificationContent) throws(DBusFailure)
        -> PostRoute?
    {
        let argv = try reader.decode(PostKeys.exec)
        let appAction = try reader.decode(PostKeys.appAction)
        if argv != nil, appAction != nil {
            throw BridgeError.invalid(
                "notification has both 'exec' and 'app-action'; responses go to one place, "
                    + "keep one of them")
        }
        if let argv { return .command(argv) }
        let actionName: String?
        switch appAction {
        case nil, .off?: return nil
        case .actionIDs?: actionName = nil
        case .named(let name)?: actionName = name
        }
        guard let entry = content.desktopEntry else {
            throw reader.invalid(
                PostKeys.appAction,
                "needs 'desktop-entry': the desktop id of the app that receives "
                    + "the action, e.g. 'desktop-entry': <'org.example.Mail'>")
        }
        guard !entry.hasPrefix(":"), DBusNames.isValidBusName(entry) else {
            throw reader.invalid(
                PostKeys.appAction,
                "needs a 'desktop-entry' that is a D-Bus name such as "
                    + "'org.example.Mail' (the app's bus name); \(quotedForMessage(entry)) is not")
        }
        if let actionName {
            guard isActionName(actionName) else {
                throw reader.invalid(
                    PostKeys.appAction,
                    "is \(quotedForMessage(actionName)), which is not an action "
                        + "name; use letters, digits, '-' and '.' (as GApplication actions do)")
            }
        } else if let bad = content.actions.first(where: { !isActionName($0.id) }) {
            throw reader.invalid(
                PostKeys.appAction,
                "is true, so action ids name the app's actions, but "
                    + "\(quotedForMessage(bad.id)) cannot (use letters, digits, '-' and '.'); rename it, or give "
                    + "'app-action' one action name, e.g. <'notification-response'>")
        }
        return .application(action: actionName)
    }

    /// Whether `name` is valid as a `GAction` name: letters, digits, `-` and `.`, at most 255 bytes.
    package static func isActionName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
    }
}
