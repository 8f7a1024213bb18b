import NotificationModel
import Testing

/// A value that validation must reject, the error it must give, and words its message must contain.
struct Rejection<Value: Sendable>: Sendable, CustomTestStringConvertible {
    var label: String
    var value: Value
    var error: NotificationValidationError
    /// Words the message must contain: the field, and the hint of what to change.
    var messageMentions: [String]

    var testDescription: String { label }
}

@Suite("NotificationAction.validate")
struct NotificationActionValidationTests {
    static let acceptedIDs = [
        "reply", "a", "A9", "org.example.mail:reply-all_2", "Default", repeated("x", 255),
    ]

    @Test("ids of letters, digits and - _ . : up to 255 bytes are accepted", arguments: acceptedIDs)
    func acceptsIDs(id: String) throws {
        try NotificationAction(id: id, title: "Do it").validate()
    }

    static let rejections: [Rejection<NotificationAction>] =
        [
            Rejection(
                label: "empty id",
                value: NotificationAction(id: "", title: "Open"),
                error: .emptyIdentifier(field: "action.id"),
                messageMentions: ["action.id is empty", "letters, digits"]
            ),
            Rejection(
                label: "256-byte id",
                value: NotificationAction(id: repeated("x", 256), title: "Open"),
                error: .identifierTooLong(field: "action.id", byteCount: 256, limit: 255),
                messageMentions: ["action.id", "256 bytes", "at most 255", "shorten"]
            ),
            Rejection(
                label: "id with a space",
                value: NotificationAction(id: "mark read", title: "Mark read"),
                error: .invalidIdentifierCharacter(field: "action.id", id: "mark read", character: " "),
                messageMentions: ["action.id \"mark read\"", "a space (U+0020)", "letters, digits and - _ . :"]
            ),
            Rejection(
                label: "id with a slash",
                value: NotificationAction(id: "a/b", title: "A"),
                error: .invalidIdentifierCharacter(field: "action.id", id: "a/b", character: "/"),
                messageMentions: ["contains '/';", "remove or replace it"]
            ),
            Rejection(
                label: "id with a non-ASCII letter",
                value: NotificationAction(id: "café", title: "Café"),
                error: .invalidIdentifierCharacter(field: "action.id", id: "café", character: "é"),
                messageMentions: ["'é' (U+00E9)", "ASCII"]
            ),
            Rejection(
                label: "id with NUL",
                value: NotificationAction(id: "a\u{0}", title: "A"),
                error: .invalidIdentifierCharacter(field: "action.id", id: "a\u{0}", character: "\u{0}"),
                messageMentions: ["U+0000", #""a\u0000""#]
            ),
            Rejection(
                label: "empty title",
                value: NotificationAction(id: "open", title: ""),
                error: .emptyTitle(field: "action.title"),
                messageMentions: ["action.title is empty", "give the action a title"]
            ),
            Rejection(
                label: "title over 1024 bytes",
                value: NotificationAction(id: "open", title: repeated("é", 513)),
                error: .textTooLong(field: "action.title", byteCount: 1026, limit: 1024),
                messageMentions: ["action.title is 1026 bytes", "at most 1024", "shorten"]
            ),
            Rejection(
                label: "title with NUL",
                value: NotificationAction(id: "open", title: "Op\u{0}en"),
                error: .containsNUL(field: "action.title"),
                messageMentions: ["action.title contains a NUL", "remove it"]
            ),
            Rejection(
                label: "placeholder with NUL",
                value: NotificationAction(id: "reply", title: "Reply", behavior: .textInput(placeholder: "\u{0}")),
                error: .containsNUL(field: "action.behavior.placeholder"),
                messageMentions: ["action.behavior.placeholder"]
            ),
            Rejection(
                label: "submit button title over 1024 bytes",
                value: NotificationAction(
                    id: "reply",
                    title: "Reply",
                    behavior: .textInput(submitButtonTitle: repeated("s", 1025))
                ),
                error: .textTooLong(field: "action.behavior.submitButtonTitle", byteCount: 1025, limit: 1024),
                messageMentions: ["action.behavior.submitButtonTitle is 1025 bytes"]
            ),
        ]
        + ReservedActionID.allCases.map { reserved in
            Rejection(
                label: "reserved id \(reserved.rawValue)",
                value: NotificationAction(id: reserved.rawValue, title: "Reserved"),
                error: .reservedActionID(field: "action.id", id: reserved.rawValue),
                messageMentions: [
                    "action.id: action id \"\(reserved.rawValue)\" is reserved",
                    "default, dismiss, inline-reply are used by the bridge", "choose another id",
                ]
            )
        }

    @Test("invalid actions are rejected with a message naming the field and the fix", arguments: rejections)
    func rejects(_ rejection: Rejection<NotificationAction>) throws {
        let error = #expect(throws: NotificationValidationError.self) { try rejection.value.validate() }
        #expect(error == rejection.error)
        let message = try #require(error).description
        for word in rejection.messageMentions {
            #expect(message.contains(word), "\(message) should mention \(word)")
        }
        #expect(error?.field == rejection.error.field)
    }

    @Test("a title of exactly 1024 bytes and empty text-input labels are accepted")
    func acceptsLimits() throws {
        try NotificationAction(id: "open", title: repeated("é", 512)).validate()
        try NotificationAction(
            id: "reply",
            title: "Reply",
            behavior: .textInput(submitButtonTitle: "", placeholder: "")
        ).validate()
    }

    @Test("reserved ids are exactly default, dismiss and inline-reply, case-sensitively")
    func reservedIDs() {
        #expect(ReservedActionID.allCases.map(\.rawValue) == ["default", "dismiss", "inline-reply"])
        #expect(ReservedActionID.isReserved("inline-reply"))
        #expect(!ReservedActionID.isReserved("Dismiss"))
        #expect(NotificationResponse.defaultActionID == "default")
        #expect(NotificationResponse.dismissActionID == "dismiss")
    }
}
