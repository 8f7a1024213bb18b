import NotificationModel
import Testing

@Suite("NotificationContent.validate")
struct NotificationContentValidationTests {
    static let registered: Set<String> = ["mail", "chat"]
    static let reply = NotificationAction(id: "reply", title: "Reply", behavior: .textInput())

    @Test(
        "content with a title, or a body, or everything set validates",
        arguments: [
            NotificationContent(title: "Hello"),
            NotificationContent(body: "Just a body"),
            NotificationContent(
                title: "New mail",
                body: "From Ann",
                appName: "Mail",
                desktopEntry: "org.example.Mail",
                icon: "mail-unread",
                image: "/tmp/avatar.png",
                defaultActionLabel: "",
                sound: .named("message-new-email"),
                userInfo: ["id": 42, "tags": ["a", "b"]],
                categoryID: "mail",
                threadID: "thread 7 with Ann",
                urgency: .critical,
                timeout: .milliseconds(1),
                isResident: true,
                isTransient: true,
                badge: 0
            ),
            NotificationContent(
                title: "x",
                sound: .file("/usr/share/sounds/bell.oga"),
                timeout: .never,
                actions: [reply]
            ),
            NotificationContent(title: repeated("t", 1024), body: repeated("b", 64 * 1024)),
        ]
    )
    func accepts(content: NotificationContent) throws {
        try content.validate(registeredCategories: Self.registered)
    }

    static let rejections: [Rejection<NotificationContent>] = [
        Rejection(
            label: "empty title and body",
            value: NotificationContent(),
            error: .missingTitleAndBody(field: "content"),
            messageMentions: ["content.title and content.body are both empty", "set at least one"]
        ),
        Rejection(
            label: "title over 1024 bytes",
            value: NotificationContent(title: repeated("t", 1025)),
            error: .textTooLong(field: "content.title", byteCount: 1025, limit: 1024),
            messageMentions: ["content.title is 1025 bytes", "shorten it"]
        ),
        Rejection(
            label: "body over 64 KiB",
            value: NotificationContent(body: repeated("b", 64 * 1024 + 1)),
            error: .textTooLong(field: "content.body", byteCount: 65537, limit: 65536),
            messageMentions: ["content.body is 65537 bytes", "at most 65536"]
        ),
        Rejection(
            label: "NUL in the body",
            value: NotificationContent(title: "t", body: "a\u{0}b"),
            error: .containsNUL(field: "content.body"),
            messageMentions: ["content.body contains a NUL", "remove it"]
        ),
        Rejection(
            label: "empty app name",
            value: NotificationContent(title: "t", appName: ""),
            error: .emptyValue(field: "content.appName"),
            messageMentions: ["content.appName is set but empty", "leave it unset"]
        ),
        Rejection(
            label: "desktop entry with .desktop",
            value: NotificationContent(title: "t", desktopEntry: "org.example.Mail.desktop"),
            error: .desktopEntryHasSuffix(field: "content.desktopEntry", value: "org.example.Mail.desktop"),
            messageMentions: ["content.desktopEntry", "without the suffix", "(\"org.example.Mail\")"]
        ),
        Rejection(
            label: "empty icon",
            value: NotificationContent(title: "t", icon: ""),
            error: .emptyValue(field: "content.icon"),
            messageMentions: ["content.icon"]
        ),
        Rejection(
            label: "NUL in the image path",
            value: NotificationContent(title: "t", image: "/tmp/a\u{0}.png"),
            error: .containsNUL(field: "content.image"),
            messageMentions: ["content.image"]
        ),
        Rejection(
            label: "empty sound name",
            value: NotificationContent(title: "t", sound: .named("")),
            error: .emptyValue(field: "content.sound.named"),
            messageMentions: ["content.sound.named"]
        ),
        Rejection(
            label: "NUL in the default action label",
            value: NotificationContent(title: "t", defaultActionLabel: "Op\u{0}en"),
            error: .containsNUL(field: "content.defaultActionLabel"),
            messageMentions: ["content.defaultActionLabel"]
        ),
        Rejection(
            label: "empty thread id",
            value: NotificationContent(title: "t", threadID: ""),
            error: .emptyValue(field: "content.threadID"),
            messageMentions: ["content.threadID"]
        ),
        Rejection(
            label: "unknown category",
            value: NotificationContent(title: "t", categoryID: "calendar"),
            error: .unknownCategory(field: "content.categoryID", id: "calendar"),
            messageMentions: ["content.categoryID", "\"calendar\" is not registered", "register the category first"]
        ),
        Rejection(
            label: "category id with invalid characters",
            value: NotificationContent(title: "t", categoryID: "new mail"),
            error: .invalidIdentifierCharacter(field: "content.categoryID", id: "new mail", character: " "),
            messageMentions: ["content.categoryID"]
        ),
        Rejection(
            label: "category and inline actions",
            value: NotificationContent(title: "t", categoryID: "mail", actions: [reply]),
            error: .categoryWithInlineActions(field: "content.actions", categoryID: "mail"),
            messageMentions: ["content.actions", "category \"mail\"", "use either"]
        ),
        Rejection(
            label: "reserved inline action id",
            value: NotificationContent(title: "t", actions: [NotificationAction(id: "inline-reply", title: "R")]),
            error: .reservedActionID(field: "content.actions[0].id", id: "inline-reply"),
            messageMentions: ["content.actions[0].id", "\"inline-reply\" is reserved", "choose another id"]
        ),
        Rejection(
            label: "duplicate inline action ids",
            value: NotificationContent(title: "t", actions: [reply, reply]),
            error: .duplicateActionID(field: "content.actions[1].id", id: "reply"),
            messageMentions: ["content.actions[1].id"]
        ),
        Rejection(
            label: "two inline text-input actions",
            value: NotificationContent(
                title: "t",
                actions: [reply, NotificationAction(id: "note", title: "Note", behavior: .textInput())]
            ),
            error: .multipleTextInputActions(field: "content.actions", ids: ["reply", "note"]),
            messageMentions: ["content.actions", "only one text field"]
        ),
        Rejection(
            label: "33 inline actions",
            value: NotificationContent(
                title: "t",
                actions: (0..<33).map { NotificationAction(id: "a\($0)", title: "A") }
            ),
            error: .tooManyActions(field: "content.actions", count: 33, limit: 32),
            messageMentions: ["content.actions has 33 actions"]
        ),
        Rejection(
            label: "zero-millisecond timeout",
            value: NotificationContent(title: "t", timeout: .milliseconds(0)),
            error: .invalidTimeout(field: "content.timeout", milliseconds: 0),
            messageMentions: ["content.timeout is 0 milliseconds", ".never or .serverDefault"]
        ),
        Rejection(
            label: "negative timeout",
            value: NotificationContent(title: "t", timeout: .milliseconds(-5)),
            error: .invalidTimeout(field: "content.timeout", milliseconds: -5),
            messageMentions: ["positive number of milliseconds"]
        ),
        Rejection(
            label: "negative badge",
            value: NotificationContent(title: "t", badge: -1),
            error: .negativeBadge(field: "content.badge", value: -1),
            messageMentions: ["content.badge is -1", "use 0 or more"]
        ),
        Rejection(
            label: "NaN deep in userInfo",
            value: NotificationContent(title: "t", userInfo: ["a": ["ok": [1, .number(.nan)]]]),
            error: .nonFiniteNumber(field: #"content.userInfo["a"]["ok"][1]"#),
            messageMentions: [#"content.userInfo["a"]["ok"][1] is NaN or infinite"#, "use a finite number"]
        ),
        Rejection(
            label: "infinity in userInfo",
            value: NotificationContent(title: "t", userInfo: ["big": .number(.infinity)]),
            error: .nonFiniteNumber(field: #"content.userInfo["big"]"#),
            messageMentions: [#"content.userInfo["big"]"#]
        ),
    ]

    @Test("invalid content is rejected with a message naming the field and the fix", arguments: rejections)
    func rejects(_ rejection: Rejection<NotificationContent>) throws {
        let error = #expect(throws: NotificationValidationError.self) {
            try rejection.value.validate(registeredCategories: Self.registered)
        }
        #expect(error == rejection.error)
        let message = try #require(error).description
        for word in rejection.messageMentions {
            #expect(message.contains(word), "\(message) should mention \(word)")
        }
    }

    /// A userInfo whose compact JSON text is exactly `size` bytes: `{"k":"xxx…"}`.
    static func userInfo(encodedSize size: Int) -> [String: JSONValue] {
        let overhead = #"{"k":""}"#.utf8.count
        return ["k": .string(repeated("x", size - overhead))]
    }

    @Test("userInfo may take up to 64 KiB as JSON, and no more")
    func userInfoLimit() throws {
        let atLimit = Self.userInfo(encodedSize: NotificationLimits.maxUserInfoBytes)
        #expect(JSONValue.object(atLimit).jsonText.utf8.count == 65536)
        try NotificationContent(title: "t", userInfo: atLimit).validate(registeredCategories: Self.registered)

        let over = Self.userInfo(encodedSize: NotificationLimits.maxUserInfoBytes + 1)
        let error = #expect(throws: NotificationValidationError.self) {
            try NotificationContent(title: "t", userInfo: over).validate(registeredCategories: Self.registered)
        }
        #expect(error == .userInfoTooLarge(field: "content.userInfo", byteCount: 65537, limit: 65536))
        #expect(try #require(error).description.contains("keep large data elsewhere"))
    }

    @Test("the lookup closure decides whether a category is registered")
    func lookupClosure() throws {
        var asked: [String] = []
        try NotificationContent(title: "t", categoryID: "mail").validate(isCategoryRegistered: {
            asked.append($0)
            return true
        })
        #expect(asked == ["mail"])
        #expect(throws: NotificationValidationError.unknownCategory(field: "content.categoryID", id: "mail")) {
            try NotificationContent(title: "t", categoryID: "mail").validate(isCategoryRegistered: { _ in false })
        }
    }

    @Test("any collection of ids can hold the registered categories")
    func arrayOfIDs() throws {
        try NotificationContent(title: "t", categoryID: "chat").validate(registeredCategories: ["mail", "chat"])
        #expect(throws: NotificationValidationError.self) {
            try NotificationContent(title: "t", categoryID: "chat").validate(registeredCategories: [String]())
        }
    }
}
