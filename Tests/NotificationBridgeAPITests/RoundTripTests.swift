import DBusCore
import NotificationBridgeAPI
import NotificationModel
import PropertyBased
import Testing

/// `decode(encode(x)) == x` for every dictionary of the interface, over generated values: what a client writes with the
/// key tables is what the daemon reads.
@Suite("the key tables round-trip")
struct RoundTripTests {
    private static let seeds = Gen.int(in: 0...Int.max)

    @Test("posts: every content field, every schedule, every route")
    func posts() async {
        await propertyCheck(count: 300, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let post = values.post()
            #expect(read { try NotificationPost(decoding: post.value) } == post)
        }
    }

    @Test("actions of every kind")
    func actions() async {
        await propertyCheck(count: 300, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let actions = (0..<values.int(in: 0...4)).map { _ in values.action() }
            let place = PostKeys.actions.name
            #expect(read { try PostKeys.actions.decode(PostKeys.actions.encode(actions), place: place) } == actions)
        }
    }

    @Test("categories, as RegisterCategory takes them and as ListCategories gives them")
    func categories() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let category = values.category()
            let options = CategoryWire.options(of: category).value
            let actions = ActionWire.value(of: category.actions)
            #expect(read { try CategoryWire.decode(id: category.id, actions: actions, options: options) } == category)
            #expect(read { try CategoryWire.decode(listed: CategoryWire.entries(of: category).value) } == category)
        }
    }

    @Test("responses")
    func responses() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let response = values.response()
            #expect(BridgeResponse(response.dictionary) == response)
        }
    }

    @Test("filters")
    func filters() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let filter = NotificationFilter(
                appName: values.maybe { $0.text() }, category: values.maybe { $0.identifier() },
                thread: values.maybe { $0.identifier() })
            #expect(read { try NotificationFilter.decoding(filter.value) } == filter)
        }
    }

    @Test("focus modes, as ListFocusModes lists them and a [focus NAME] group of settings.ini holds them")
    func focusModes() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            let mode = FocusModeListing(
                name: values.identifier(), apps: (0..<values.int(in: 0...3)).map { _ in values.identifier() },
                threads: (0..<values.int(in: 0...3)).map { _ in
                    FocusRequest.Thread(app: values.identifier(), id: values.identifier())
                },
                timeSensitive: values.bool(),
                schedules: (0..<values.int(in: 0...2)).map { _ in "mon-fri \(values.int(in: 10...23)):00-07:00" })
            #expect(FocusModeListing(mode.value) == mode)
        }
    }

    @Test("listed notifications: id, post and next fire date")
    func listed() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var values = WireValues(seed: UInt64(seed))
            var post = values.post()
            post.replaces = nil
            post.hints = [:]
            if post.content.appName == nil { post.content.appName = "App" }
            let next = values.maybe { Int64($0.int(in: 0...4_000_000_000)) }
            let listed = ListedNotification(id: values.notificationID(), post: post, nextFireSeconds: next)
            let decoded = ListedNotification(listed.value)
            #expect(decoded?.id == listed.id)
            #expect(decoded?.post == listed.post)
            #expect(decoded?.nextFireSeconds == listed.nextFireSeconds)
        }
    }
}

/// The value `body` reads, or `nil` with the error recorded as an issue.
private func read<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        Issue.record("\(error)")
        return nil
    }
}

extension NotificationFilter {
    /// Reads a filter as the daemon does.
    static func decoding(_ value: DBusValue) throws(DBusFailure) -> NotificationFilter {
        try NotificationFilter(value)
    }
}
