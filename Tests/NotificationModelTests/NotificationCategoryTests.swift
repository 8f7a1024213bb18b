import NotificationModel
import Testing

@Suite("NotificationCategory")
struct NotificationCategoryTests {
    static let reply = NotificationAction(id: "reply", title: "Reply", behavior: .textInput())
    static let archive = NotificationAction(id: "archive", title: "Archive", activation: .background)
    static let delete = NotificationAction(id: "delete", title: "Delete", activation: .background, isDestructive: true)

    @Test("without minimal actions, the first two actions are used")
    func effectiveMinimalFallsBack() {
        let category = NotificationCategory(id: "mail", actions: [Self.reply, Self.archive, Self.delete])
        #expect(category.effectiveMinimalActions == [Self.reply, Self.archive])
        #expect(NotificationCategory(id: "one", actions: [Self.delete]).effectiveMinimalActions == [Self.delete])
        #expect(NotificationCategory(id: "none").effectiveMinimalActions.isEmpty)
    }

    @Test("explicit minimal actions are used as given")
    func effectiveMinimalExplicit() {
        let short = NotificationAction(id: "delete", title: "Del", activation: .background, isDestructive: true)
        let category = NotificationCategory(
            id: "mail",
            actions: [Self.reply, Self.archive, Self.delete],
            minimalActions: [short]
        )
        #expect(category.effectiveMinimalActions == [short])
    }

    @Test("a well-formed category validates, including minimal actions with their own titles")
    func acceptsValidCategory() throws {
        let shortDelete = NotificationAction(id: "delete", title: "Del", activation: .background)
        try NotificationCategory(
            id: "org.example.mail:new",
            actions: [Self.reply, Self.archive, Self.delete],
            minimalActions: [shortDelete, Self.reply],
            reportsDismissal: true
        ).validate()
        try NotificationCategory(id: "empty").validate()
        let full = (0..<32).map { NotificationAction(id: "a\($0)", title: "A\($0)") }
        try NotificationCategory(id: "full", actions: full).validate()
    }

    static let rejections: [Rejection<NotificationCategory>] = [
        Rejection(
            label: "empty id",
            value: NotificationCategory(id: ""),
            error: .emptyIdentifier(field: "category.id"),
            messageMentions: ["category.id is empty"]
        ),
        Rejection(
            label: "id with a space",
            value: NotificationCategory(id: "new mail"),
            error: .invalidIdentifierCharacter(field: "category.id", id: "new mail", character: " "),
            messageMentions: ["category.id \"new mail\"", "a space"]
        ),
        Rejection(
            label: "duplicate action ids",
            value: NotificationCategory(id: "mail", actions: [archive, delete, archive]),
            error: .duplicateActionID(field: "category.actions[2].id", id: "archive"),
            messageMentions: ["category.actions[2].id", "\"archive\" is used more than once", "its own id"]
        ),
        Rejection(
            label: "reserved action id",
            value: NotificationCategory(id: "mail", actions: [archive, NotificationAction(id: "dismiss", title: "X")]),
            error: .reservedActionID(field: "category.actions[1].id", id: "dismiss"),
            messageMentions: ["category.actions[1].id", "reserved", "choose another id"]
        ),
        Rejection(
            label: "invalid action inside",
            value: NotificationCategory(id: "mail", actions: [NotificationAction(id: "ok", title: "")]),
            error: .emptyTitle(field: "category.actions[0].title"),
            messageMentions: ["category.actions[0].title is empty"]
        ),
        Rejection(
            label: "two text-input actions",
            value: NotificationCategory(
                id: "chat",
                actions: [reply, archive, NotificationAction(id: "note", title: "Note", behavior: .textInput())]
            ),
            error: .multipleTextInputActions(field: "category.actions", ids: ["reply", "note"]),
            messageMentions: ["category.actions", "\"reply\", \"note\"", "only one text field"]
        ),
        Rejection(
            label: "33 actions",
            value: NotificationCategory(
                id: "big",
                actions: (0..<33).map { NotificationAction(id: "a\($0)", title: "A") }
            ),
            error: .tooManyActions(field: "category.actions", count: 33, limit: 32),
            messageMentions: ["category.actions has 33 actions", "at most 32", "remove some"]
        ),
        Rejection(
            label: "three minimal actions",
            value: NotificationCategory(
                id: "mail",
                actions: [reply, archive, delete],
                minimalActions: [reply, archive, delete]
            ),
            error: .tooManyMinimalActions(field: "category.minimalActions", count: 3, limit: 2),
            messageMentions: ["category.minimalActions has 3", "at most 2", "leave it empty"]
        ),
        Rejection(
            label: "minimal action not among the actions",
            value: NotificationCategory(id: "mail", actions: [reply, archive], minimalActions: [archive, delete]),
            error: .minimalActionNotInActions(field: "category.minimalActions[1].id", id: "delete"),
            messageMentions: ["category.minimalActions[1].id", "\"delete\"", "add it to actions"]
        ),
        Rejection(
            label: "duplicate minimal actions",
            value: NotificationCategory(id: "mail", actions: [reply, archive], minimalActions: [archive, archive]),
            error: .duplicateActionID(field: "category.minimalActions[1].id", id: "archive"),
            messageMentions: ["category.minimalActions[1].id"]
        ),
    ]

    @Test("invalid categories are rejected with a message naming the field and the fix", arguments: rejections)
    func rejects(_ rejection: Rejection<NotificationCategory>) throws {
        let error = #expect(throws: NotificationValidationError.self) { try rejection.value.validate() }
        #expect(error == rejection.error)
        let message = try #require(error).description
        for word in rejection.messageMentions {
            #expect(message.contains(word), "\(message) should mention \(word)")
        }
    }

    @Test("a set of categories must have distinct ids")
    func setRejectsDuplicates() throws {
        let categories = [
            NotificationCategory(id: "mail"), NotificationCategory(id: "chat"), NotificationCategory(id: "mail"),
        ]
        let error = #expect(throws: NotificationValidationError.self) {
            try NotificationCategory.validate(categories)
        }
        #expect(error == .duplicateCategoryID(field: "categories[2].id", id: "mail"))
        #expect(try #require(error).description.contains("give each category its own id"))
    }

    @Test("a set of categories names the category an error is in")
    func setNamesCategory() {
        let categories = [
            NotificationCategory(id: "mail"), NotificationCategory(id: "chat", actions: [Self.reply, Self.reply]),
        ]
        #expect(
            throws: NotificationValidationError.duplicateActionID(field: "categories[1].actions[1].id", id: "reply")
        ) {
            try NotificationCategory.validate(categories)
        }
    }

    @Test("at most 1024 categories may be registered")
    func setLimit() throws {
        let limit = NotificationLimits.maxCategories
        try NotificationCategory.validate((0..<limit).map { NotificationCategory(id: "c\($0)") })
        let error = #expect(throws: NotificationValidationError.self) {
            try NotificationCategory.validate((0...limit).map { NotificationCategory(id: "c\($0)") })
        }
        #expect(error == .tooManyCategories(field: "categories", count: 1025, limit: 1024))
    }

    @Test("categories survive an encode-decode round trip with the documented keys")
    func codable() throws {
        let category = NotificationCategory(
            id: "mail",
            actions: [Self.reply, Self.archive],
            minimalActions: [Self.archive],
            reportsDismissal: true,
            summaryFormat: "%u new messages from %@"
        )
        #expect(try roundTrip(category) == category)
        let json = try encodedJSON(category)
        #expect(json["reports-dismissal"] == true)
        #expect(json["summary-format"] == "%u new messages from %@")
        #expect(json["minimal-actions"] == .array([try encodedJSON(Self.archive)]))
        let decoded = try decode(NotificationCategory.self, from: #"{"id":"bare"}"#)
        #expect(decoded == NotificationCategory(id: "bare"))
    }

    @Test("a summary format with anything but %u, %@ and %% is refused, naming the field")
    func summaryFormatIsChecked() {
        let category = NotificationCategory(id: "mail", actions: [Self.reply], summaryFormat: "%d new from %s")
        #expect(throws: NotificationValidationError.self) { try category.validate() }
        do {
            try category.validate()
        } catch {
            #expect(error.field == "category.summaryFormat")
            #expect(error.description.contains("%u"))
        }
        let fine = NotificationCategory(id: "mail", actions: [Self.reply], summaryFormat: "%1$u from %2$@, 100%%")
        #expect(throws: Never.self) { try fine.validate() }
    }

    @Test("snooze intervals and their report are kept under their documented keys, and left out when not set")
    func snoozeCoding() throws {
        var category = NotificationCategory(id: "reminder", actions: [Self.reply])
        #expect(try encodedJSON(category)["snooze"] == nil)
        #expect(try encodedJSON(category)["reports-snooze"] == nil)
        category.snoozeIntervals = [.minutes(10), .hours(1)]
        category.reportsSnooze = true
        #expect(try roundTrip(category) == category)
        let json = try encodedJSON(category)
        #expect(json["snooze"] == [600, 3600])
        #expect(json["reports-snooze"] == true)
    }

    @Test(
        "snooze intervals are checked: positive, at most 7 days, at most four, no two the same",
        arguments: [
            (
                [0],
                NotificationValidationError.invalidSnoozeInterval(
                    field: "category.snoozeIntervals[0]", seconds: 0, limit: 604_800)
            ),
            (
                [60, 604_801],
                .invalidSnoozeInterval(field: "category.snoozeIntervals[1]", seconds: 604_801, limit: 604_800)
            ),
            ([1, 2, 3, 4, 5], .tooManySnoozeIntervals(field: "category.snoozeIntervals", count: 5, limit: 4)),
            ([60, 60], .duplicateSnoozeInterval(field: "category.snoozeIntervals[1]", seconds: 60)),
        ] as [([Int], NotificationValidationError)])
    func snoozeValidation(seconds: [Int], expected: NotificationValidationError) throws {
        var category = NotificationCategory(id: "reminder", actions: [Self.reply])
        category.snoozeIntervals = seconds.map(SnoozeInterval.init(seconds:))
        let error = #expect(throws: NotificationValidationError.self) { try category.validate() }
        #expect(error == expected)
        category.snoozeIntervals = [
            .minutes(10), .hours(1), SnoozeInterval(seconds: 1), SnoozeInterval(seconds: 604_800),
        ]
        try category.validate()
    }

    @Test("an app's own action may be called snooze, unless its category reports snoozes under that id")
    func snoozeActionID() throws {
        var category = NotificationCategory(
            id: "reminder", actions: [NotificationAction(id: "snooze", title: "Later")])
        category.snoozeIntervals = [.minutes(10)]
        try category.validate()
        category.reportsSnooze = true
        let error = #expect(throws: NotificationValidationError.self) { try category.validate() }
        #expect(error == .snoozeActionIDTaken(field: "category.actions[0].id"))
        #expect(try #require(error).description.contains("rename the action"))
        let reserved = NotificationAction(id: "snooze:600", title: "Later")
        #expect(throws: NotificationValidationError.reservedActionID(field: "action.id", id: "snooze:600")) {
            try reserved.validate()
        }
    }

    @Test("intervals read and write as the command line writes them, and label their buttons")
    func snoozeText() {
        #expect(SnoozeInterval(text: "10m") == .minutes(10))
        #expect(SnoozeInterval(text: "1h30m") == SnoozeInterval(seconds: 5400))
        #expect(SnoozeInterval(text: "2d") == SnoozeInterval(seconds: 172_800))
        #expect(SnoozeInterval(text: "45") == SnoozeInterval(seconds: 45))
        #expect(SnoozeInterval(text: "10x") == nil)
        #expect(SnoozeInterval(text: "m") == nil)
        #expect(SnoozeInterval(text: "") == nil)
        #expect(SnoozeInterval(seconds: 5400).text == "1h30m")
        #expect(SnoozeInterval(seconds: 5400).label == "1 h 30 min")
        #expect(SnoozeInterval.minutes(10).label == "10 min")
        #expect(SnoozeInterval.minutes(10).actionKey == "snooze:600")
    }
}
