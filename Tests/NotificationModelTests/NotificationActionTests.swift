import Foundation
import NotificationModel
import Testing

@Suite("NotificationAction: authentication, behavior and coding")
struct NotificationActionTests {
    @Test("a foreground action requires authentication whatever was asked", arguments: [false, true])
    func foregroundForcesAuthentication(requested: Bool) {
        let action = NotificationAction(
            id: "open",
            title: "Open",
            activation: .foreground,
            requiresAuthentication: requested
        )
        #expect(action.requiresAuthentication)
    }

    @Test("a background action keeps the requested authentication", arguments: [false, true])
    func backgroundKeepsRequest(requested: Bool) {
        let action = NotificationAction(
            id: "archive",
            title: "Archive",
            activation: .background,
            requiresAuthentication: requested
        )
        #expect(action.requiresAuthentication == requested)
    }

    @Test("assigning false to a foreground action's authentication has no effect")
    func assigningFalseToForeground() {
        var action = NotificationAction(id: "open", title: "Open", activation: .foreground)
        action.requiresAuthentication = false
        #expect(action.requiresAuthentication)
    }

    @Test("switching an action to foreground turns authentication on, and switching back keeps it on")
    func switchingActivation() {
        var action = NotificationAction(id: "mark", title: "Mark read", activation: .background)
        #expect(!action.requiresAuthentication)
        action.activation = .foreground
        #expect(action.requiresAuthentication)
        action.activation = .background
        #expect(action.requiresAuthentication)
        action.requiresAuthentication = false
        #expect(!action.requiresAuthentication)
    }

    @Test("equality compares the effective authentication")
    func equalityUsesEffectiveValue() {
        let asked = NotificationAction(
            id: "open",
            title: "Open",
            activation: .foreground,
            requiresAuthentication: false
        )
        let forced = NotificationAction(
            id: "open",
            title: "Open",
            activation: .foreground,
            requiresAuthentication: true
        )
        #expect(asked == forced)
        #expect(Set([asked, forced]).count == 1)
    }

    @Test("decoding a foreground action that says authentication-required false still requires authentication")
    func decodingForegroundForcesAuthentication() throws {
        let json = #"{"id":"open","title":"Open","activation":"foreground","authentication-required":false}"#
        let action = try decode(NotificationAction.self, from: json)
        #expect(action.activation == .foreground)
        #expect(action.requiresAuthentication)
        #expect(try encodedJSON(action)["authentication-required"] == .bool(true))
    }

    @Test("decoding a background action keeps authentication-required false")
    func decodingBackgroundKeepsFalse() throws {
        let json = #"{"id":"archive","title":"Archive","activation":"background","authentication-required":false}"#
        let action = try decode(NotificationAction.self, from: json)
        #expect(!action.requiresAuthentication)
    }

    @Test("decoding only id and title gives the initializer's defaults")
    func decodingDefaults() throws {
        let action = try decode(NotificationAction.self, from: #"{"id":"ok","title":"OK"}"#)
        #expect(action == NotificationAction(id: "ok", title: "OK"))
        #expect(action.activation == .foreground)
        #expect(action.behavior == .default)
        #expect(action.textInputFallback == .hide)
        #expect(!action.isDestructive)
    }

    @Test("a text-input action is written with the daemon's action keys")
    func encodedKeys() throws {
        let action = NotificationAction(
            id: "reply",
            title: "Reply",
            activation: .background,
            isDestructive: true,
            behavior: .textInput(submitButtonTitle: "Send", placeholder: "Message"),
            textInputFallback: .deliverWithoutText
        )
        let json = try encodedJSON(action)
        #expect(
            json == [
                "id": "reply", "title": "Reply", "activation": "background", "destructive": true,
                "authentication-required": false, "behavior": "text-input", "text-input-button-title": "Send",
                "text-input-placeholder": "Message", "text-input-fallback": "deliver-without-text",
            ]
        )
    }

    static let roundTripCases: [NotificationAction] = [
        NotificationAction(id: "ok", title: "OK"),
        NotificationAction(
            id: "delete",
            title: "Delete",
            activation: .background,
            isDestructive: true,
            requiresAuthentication: true
        ),
        NotificationAction(id: "reply", title: "Reply", behavior: .textInput(NotificationAction.TextInput())),
        NotificationAction(
            id: "note",
            title: "Note",
            activation: .background,
            behavior: .textInput(submitButtonTitle: "Save", placeholder: nil),
            textInputFallback: .deliverWithoutText
        ),
        NotificationAction(id: "ünïcode-title", title: "Ответить \"now\" 😀"),
    ]

    @Test("actions survive an encode-decode round trip", arguments: roundTripCases)
    func codableRoundTrip(action: NotificationAction) throws {
        #expect(try roundTrip(action) == action)
    }

    @Test(
        "decoding rejects unknown names",
        arguments: [
            #"{"id":"a","title":"A","behavior":"voice"}"#,
            #"{"id":"a","title":"A","activation":"sideways"}"#,
            #"{"id":"a","title":"A","text-input-fallback":"shrug"}"#,
            #"{"title":"A"}"#,
        ]
    )
    func decodingRejectsUnknownNames(json: String) {
        #expect(throws: DecodingError.self) { try decode(NotificationAction.self, from: json) }
    }

    @Test("isTextInput tells text-input actions apart")
    func isTextInput() {
        #expect(NotificationAction(id: "r", title: "R", behavior: .textInput()).isTextInput)
        #expect(!NotificationAction(id: "o", title: "O").isTextInput)
    }
}
