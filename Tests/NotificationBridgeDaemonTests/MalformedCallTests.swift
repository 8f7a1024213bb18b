import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

/// Bad calls of every method: each gets the right error, with a message that says what to change, and the daemon
/// keeps serving.
@Suite("Malformed calls")
struct MalformedCallTests {
    struct Case: Sendable, CustomStringConvertible {
        let method: String
        let arguments: [DBusValue]
        let error: String
        /// Text the message must contain.
        let says: String
        let description: String
    }

    static let invalid = "io.github.NotificationBridge1.Error.InvalidArgument"
    static let unknownNotification = "io.github.NotificationBridge1.Error.UnknownNotification"
    static let unknownCategory = "io.github.NotificationBridge1.Error.UnknownCategory"
    static let notSupported = "io.github.NotificationBridge1.Error.NotSupported"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let wellFormedUnknownID = "0123456789abcdef"
    static let huge = String(repeating: "x", count: 2 << 20)

    static func action(_ entries: [String: DBusValue]) -> DBusValue { .vardict(entries) }
    /// An action with an id and a title, and `extra` keys.
    static func action(id: String, title: String = "A", _ extra: [String: DBusValue] = [:]) -> DBusValue {
        action(extra.merging([ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(title)]) { $1 })
    }
    static func actions(_ items: [DBusValue]) -> DBusValue { .array(element: "a{sv}", items) }
    static let okAction = action(id: "ok", title: "OK")
    static func post(_ entries: [String: DBusValue]) -> [DBusValue] { [.vardict(entries)] }
    static func titled(_ entries: [String: DBusValue]) -> [DBusValue] {
        post(entries.merging([PostKeys.title.name: .string("Hello")]) { first, _ in first })
    }
    static func register(_ id: String, _ items: [DBusValue], _ options: [String: DBusValue] = [:]) -> [DBusValue] {
        [.string(id), actions(items), .vardict(options)]
    }

    static let cases: [Case] = [
        // RegisterCategory
        Case(
            method: BridgeMethod.registerCategory.name, arguments: register("bad id!", [okAction]), error: invalid,
            says: "category id \"bad id!\" contains", description: "category id with a space"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action([ActionKeys.id.name: .string("a")])]),
            error: invalid,
            says: "actions[0] has no 'title'", description: "action without title"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action([ActionKeys.id.name: .int32(5), ActionKeys.title.name: .string("A")])]),
            error: invalid,
            says: "actions[0] key 'id' holds an int32 ('i'); expected a string ('s')", description: "id of wrong type"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action(id: "a", ["colour": .string("red")])]),
            error: invalid, says: "actions[0] has unknown key 'colour'", description: "unknown action key"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action(id: "a", [ActionKeys.activation.name: .string("x")])]),
            error: invalid, says: "use one of 'foreground', 'background'", description: "unknown activation"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action(id: "a", [PostKeys.exec.name: .strings(["/x"])])]),
            error: invalid, says: "which belongs to the notification", description: "exec on an action"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", (0..<5000).map { action(id: "a\($0)") }),
            error: invalid, says: "actions has 5000 entries; at most 32", description: "thousands of actions"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [okAction], [CategoryOptionKeys.minimalActions.name: .strings(["zzz"])]),
            error: invalid,
            says: "names 'zzz', which is not the id of one of the actions", description: "unknown minimal action"),
        Case(
            method: BridgeMethod.registerCategory.name, arguments: register("c", [okAction, okAction]), error: invalid,
            says: "is used more than once", description: "duplicate action ids"),
        Case(
            method: BridgeMethod.registerCategory.name,
            arguments: register("c", [action(id: "default")]), error: invalid,
            says: "is reserved", description: "reserved action id"),
        Case(
            method: BridgeMethod.registerCategory.name, arguments: register(huge, [okAction]), error: invalid,
            says: "ids may be at most 255 bytes", description: "huge category id"),
        // RemoveCategory
        Case(
            method: BridgeMethod.removeCategory.name, arguments: [.string("nope")], error: unknownCategory,
            says: "category 'nope' is not registered", description: "unknown category"),
        // Post
        Case(
            method: BridgeMethod.post.name, arguments: post([:]), error: invalid, says: "title and body are both empty",
            description: "empty notification"),
        Case(
            method: BridgeMethod.post.name, arguments: post([PostKeys.title.name: .int32(5)]), error: invalid,
            says: "notification key 'title' holds an int32 ('i'); expected a string ('s')",
            description: "title of wrong type"),
        Case(
            method: BridgeMethod.post.name, arguments: titled(["titel": .string("x")]), error: invalid,
            says: "unknown key 'titel' (did you mean 'title'?)", description: "misspelt key"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([String(repeating: "k", count: 10_000): .string("x")]),
            error: invalid,
            says: "kkkk…'", description: "huge unknown key, cut short in the message"),
        Case(
            method: BridgeMethod.post.name, arguments: post([PostKeys.title.name: .string(huge)]), error: invalid,
            says: "title is 2097152 bytes long (UTF-8); at most 1024", description: "huge title"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.category.name: .string("nope")]),
            error: unknownCategory,
            says: "category \"nope\" is not registered", description: "unregistered category"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.fireDate.name: .string("tomorrow"), PostKeys.timeZone.name: .string("local")]),
            error: invalid, says: "key 'fire-date' is 'tomorrow', which is not YYYY-MM-DDTHH:MM:SS; use seconds",
            description: "fire date that is not a date"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.fireDate.name: .string("2026-01-01T09:00:00")]), error: invalid,
            says: "key 'fire-date' is a wall-clock time, which needs 'time-zone': <'local'>",
            description: "wall-clock fire date without a time zone"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.fireDate.name: .string("2026-02-30T09:00:00"), PostKeys.timeZone.name: .string("local"),
            ]),
            error: invalid, says: "key 'fire-date' is not a valid time", description: "fire date that does not exist"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.fireDate.name: .boolean(true)]), error: invalid,
            says: "key 'fire-date' holds a boolean ('b'); expected an int64 ('x')",
            description: "fire date of wrong type"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.fireDate.name: .int64(1_900_000_000), PostKeys.timeZone.name: .string("Mars/Olympus"),
            ]),
            error: invalid, says: "key 'time-zone' is 'Mars/Olympus'; use 'local'", description: "unknown time zone"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.delay.name: .double(-1)]), error: invalid,
            says: "key 'in' is -1.0; use a number of seconds above 0", description: "negative interval"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.delay.name: .string("soon")]), error: invalid,
            says: "key 'in' holds a string ('s'); expected a double ('d')", description: "interval as text"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.delay.name: .double(5), PostKeys.fireDate.name: .int64(1_900_000_000)]),
            error: invalid, says: "both 'fire-date' and 'in'", description: "two first fire dates"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.delay.name: .double(60), PostKeys.repeat.name: .string("fortnight")]),
            error: invalid,
            says: "key 'repeat' is 'fortnight'; use one of 'minute', 'hour', 'day', 'week', 'month', 'year'",
            description: "unknown repeat interval"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.repeat.name: .string("day")]), error: invalid,
            says: "key 'repeat' needs 'fire-date' or 'in'", description: "repeat without a fire date"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.urgency.name: .string("urgent")]),
            error: invalid,
            says: "use 'low', 'normal' or 'critical'", description: "unknown urgency"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.urgency.name: .double(1)]), error: invalid,
            says: "key 'urgency' holds a double ('d')", description: "urgency of wrong type"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.timeout.name: .int32(-5)]), error: invalid,
            says: "-1 for the server's default or 0 for never", description: "negative timeout"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.timeout.name: .string("5s")]), error: invalid,
            says: "expected an int32 ('i'), e.g. 'timeout': <5000>", description: "timeout as text"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.badge.name: .int32(-1)]), error: invalid,
            says: "use 0 or more", description: "negative badge"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.userInfo.name: .string("{bad")]),
            error: invalid,
            says: "is not JSON", description: "user-info not JSON"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.userInfo.name: .string("[1]")]), error: invalid,
            says: "is JSON but not an object", description: "user-info not an object"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.userInfo.name: .vardict(["a": .int32(1)])]),
            error: invalid,
            says: "expected a string ('s')", description: "user-info as a dictionary"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.exec.name: .strings(["/nonexistent/program"])]), error: invalid,
            says: "which is not an executable file", description: "missing program"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.exec.name: .strings(["bin/program"])]),
            error: invalid,
            says: "a relative path", description: "relative program"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.exec.name: .strings([])]), error: invalid,
            says: "needs the program first", description: "empty argv"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.exec.name: .string("/bin/true")]),
            error: invalid,
            says: "expected an array of strings ('as')", description: "argv as a string"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.appAction.name: .boolean(true)]),
            error: invalid,
            says: "needs 'desktop-entry'", description: "app-action without desktop entry"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.appAction.name: .boolean(true), PostKeys.exec.name: .strings(["/bin/true"]),
                PostKeys.desktopEntry.name: .string("org.a.B"),
            ]),
            error: invalid, says: "has both 'exec' and 'app-action'", description: "two routes"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([PostKeys.replaces.name: .string(wellFormedUnknownID)]), error: unknownNotification,
            says: "no notification has id '0123456789abcdef'", description: "replaces an unknown id"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.replaces.name: .string("../../etc/passwd")]),
            error: invalid,
            says: "is not a notification id", description: "replaces a malformed id"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.actions.name: actions((0..<2000).map { action(id: "a\($0)") })
            ]),
            error: invalid, says: "actions has 2000 entries", description: "thousands of inline actions"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.actions.name: actions([
                    action(id: "a", [ActionKeys.behavior.name: .string("text-input")]),
                    action(id: "b", title: "B", [ActionKeys.behavior.name: .string("text-input")]),
                ])
            ]),
            error: invalid, says: "can show only one text field", description: "two text inputs"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.actions.name: actions([action(id: "a", [ActionKeys.textInputPlaceholder.name: .string("p")])])
            ]),
            error: invalid, says: "applies only to text-input actions", description: "text-input key, plain action"),
        Case(
            method: BridgeMethod.post.name,
            arguments: titled([
                PostKeys.actions.name: actions([
                    action(id: "a", [ActionKeys.authenticationRequired.name: .boolean(false)])
                ])
            ]),
            error: invalid, says: "foreground actions always require authentication",
            description: "foreground action without authentication"),
        Case(
            method: BridgeMethod.post.name, arguments: titled([PostKeys.actions.name: .strings(["a", "A"])]),
            error: invalid,
            says: "expected an array of dictionaries ('aa{sv}')", description: "actions as a flat list"),
        // Withdraw, WithdrawAll, listing
        Case(
            method: BridgeMethod.withdraw.name, arguments: [.string("")], error: invalid,
            says: "is not a notification id",
            description: "empty id"),
        Case(
            method: BridgeMethod.withdraw.name, arguments: [.string(huge)], error: invalid,
            says: "xxxx…' is not a notification id",
            description: "huge id"),
        Case(
            method: BridgeMethod.withdraw.name, arguments: [.string(wellFormedUnknownID)], error: unknownNotification,
            says: "use an id returned when it was posted", description: "unknown id"),
        Case(
            method: BridgeMethod.withdrawAll.name, arguments: [.vardict(["app": .string("Mail")])], error: invalid,
            says: "filter has unknown key 'app' (did you mean 'app-name'?)", description: "misspelt filter key"),
        Case(
            method: BridgeMethod.withdrawAll.name, arguments: [.vardict([FilterKeys.appName.name: .int32(1)])],
            error: invalid,
            says: "filter key 'app-name' holds an int32", description: "filter value of wrong type"),
        Case(
            method: BridgeMethod.listPending.name, arguments: [.vardict(["bogus": .boolean(true)])], error: invalid,
            says: "filter has unknown key 'bogus'", description: "unknown pending filter key"),
        Case(
            method: BridgeMethod.listDelivered.name, arguments: [.vardict([FilterKeys.thread.name: .strings(["x"])])],
            error: invalid,
            says: "filter key 'thread' holds an array of strings ('as')", description: "delivered filter type"),
        // WaitForResponse
        Case(
            method: BridgeMethod.waitForResponse.name, arguments: [.string("nope")], error: invalid,
            says: "'nope' is not a notification id", description: "malformed wait id"),
        Case(
            method: BridgeMethod.waitForResponse.name, arguments: [.string(wellFormedUnknownID)],
            error: unknownNotification,
            says: "no notification has id", description: "unknown wait id"),
        // Wrong signatures, refused by DBusCore from the interface description
        Case(
            method: BridgeMethod.post.name, arguments: [.string(PostKeys.title.name)], error: invalidArgs,
            says: "takes arguments of signature 'a{sv}', got 's'", description: "Post with a string"),
        Case(
            method: BridgeMethod.registerCategory.name, arguments: [.string("c")], error: invalidArgs,
            says: "'saa{sv}a{sv}'", description: "RegisterCategory missing arguments"),
        Case(
            method: BridgeMethod.withdraw.name, arguments: [.uint32(5)], error: invalidArgs, says: "got 'u'",
            description: "Withdraw with a number"),
        Case(
            method: BridgeMethod.getServerInformation.name, arguments: [.string("x")], error: invalidArgs,
            says: "got 's'",
            description: "GetServerInformation with an argument"),
        Case(
            method: BridgeMethod.waitForResponse.name, arguments: [], error: invalidArgs, says: "got ''",
            description: "WaitForResponse without id"),
    ]

    @Test("every malformed call gets the right error, and the daemon answers afterwards")
    func malformedCalls() async throws {
        try await DaemonFixture.with { fixture in
            for item in Self.cases {
                let error = await #expect(throws: DBusFailure.self, "\(item)") {
                    try await fixture.call(item.method, item.arguments)
                }
                #expect(error?.name == item.error, "\(item): \(error?.message ?? "")")
                #expect(error?.message.contains(item.says) == true, "\(item): \(error?.message ?? "")")
                #expect((error?.message.utf8.count ?? 0) < 2000, "\(item): the message is cut short")
                let information = try await fixture.call(BridgeMethod.getServerInformation.name)
                #expect(information.count == 1, "\(item): the daemon still answers")
            }
            #expect(try await fixture.call(BridgeMethod.listCategories.name) == [.array(element: "a{sv}", [])])
        }
    }
}
