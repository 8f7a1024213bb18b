import NotificationModel
import Testing

@Suite("Coding of content, responses and small value types")
struct NotificationContentCodingTests {
    static let full: NotificationContent = {
        var content = NotificationContent(
            title: "New mail",
            body: "From Ann:\n\"Lunch?\"",
            appName: "Mail",
            desktopEntry: "org.example.Mail",
            icon: "mail-unread",
            image: "/home/ann/avatar.png",
            defaultActionLabel: "Open",
            sound: .file("/tmp/ding.oga"),
            userInfo: ["message": ["id": 42, "flags": [true, nil, 1.5, "x"]]],
            categoryID: "mail",
            threadID: "ann",
            urgency: .critical,
            interruptionLevel: .critical,
            timeout: .milliseconds(5000),
            isResident: true,
            isTransient: true,
            badge: 3,
            actions: [NotificationAction(id: "reply", title: "Reply", behavior: .textInput(placeholder: "…"))]
        )
        content.bodyIsMarkup = true
        content.summaryArgument = "Ann"
        content.summaryArgumentCount = 2
        content.alwaysSummarizesThread = true
        content.snoozeIntervals = [.minutes(10), .hours(1)]
        return content
    }()

    @Test(
        "content survives an encode-decode round trip",
        arguments: [
            full, NotificationContent(title: "only a title"),
            NotificationContent(body: "b", sound: .none, timeout: .never),
            NotificationContent(title: "t", sound: .named("bell"), urgency: .low, badge: 0),
        ]
    )
    func roundTrips(content: NotificationContent) throws {
        #expect(try roundTrip(content) == content)
    }

    @Test("content is written with the daemon's notification keys")
    func keys() throws {
        let json = try encodedJSON(Self.full)
        guard case .object(let members) = json else {
            Issue.record("content should encode as an object, got \(json)")
            return
        }
        #expect(
            Set(members.keys) == [
                "title", "body", "app-name", "desktop-entry", "icon", "image", "default-action", "sound", "user-info",
                "category", "thread", "urgency", "timeout", "resident", "transient", "badge", "actions",
                "body-is-markup", "interruption-level", "summary-argument", "summary-argument-count",
                "thread-summary", "snooze",
            ]
        )
        #expect(json["summary-argument"] == "Ann")
        #expect(json["summary-argument-count"] == 2)
        #expect(json["thread-summary"] == true)
        #expect(json["snooze"] == [600, 3600])
        #expect(json["body-is-markup"] == true)
        #expect(json["urgency"] == "critical")
        #expect(json["interruption-level"] == "critical")
        #expect(json["timeout"] == 5000)
        #expect(json["sound"] == ["file": "/tmp/ding.oga"])
        #expect(json["user-info"] == .object(Self.full.userInfo))
    }

    @Test("unset optional fields are left out when encoding")
    func leavesOutUnset() throws {
        let json = try encodedJSON(NotificationContent(title: "t"))
        for key in ["app-name", "desktop-entry", "icon", "image", "default-action", "category", "thread", "badge"] {
            #expect(json[key] == nil, "\(key) should be left out")
        }
    }

    @Test("fields at the initializer's default are left out when encoding, and read back as that default")
    func leavesOutDefaults() throws {
        let content = NotificationContent(title: "t", body: "b")
        let json = try encodedJSON(content)
        guard case .object(let members) = json else {
            Issue.record("content should encode as an object, got \(json)")
            return
        }
        #expect(Set(members.keys) == ["title", "body"])
        #expect(try roundTrip(content) == content)
        // One field off its default is written alone.
        let low = try encodedJSON(NotificationContent(title: "t", urgency: .low))
        #expect(low["urgency"] == "low")
        #expect(low["sound"] == nil)
    }

    @Test("decoding an empty object gives the initializer's defaults")
    func decodesDefaults() throws {
        #expect(try decode(NotificationContent.self, from: "{}") == NotificationContent())
        let content = try decode(NotificationContent.self, from: #"{"body":"b","urgency":2,"timeout":-1}"#)
        #expect(content == NotificationContent(body: "b", urgency: .critical, timeout: .serverDefault))
    }

    static let soundFormsCases: [(json: String, sound: NotificationSound)] = [
        (#""default""#, NotificationSound.default), (#""none""#, .none),
        (#"{"name":"bell"}"#, .named("bell")), (#"{"file":"/a.oga"}"#, .file("/a.oga")),
    ]

    @Test("sounds decode from their documented forms", arguments: soundFormsCases)
    func soundForms(json: String, sound: NotificationSound) throws {
        #expect(try decode(NotificationSound.self, from: json) == sound)
        #expect(try roundTrip(sound) == sound)
    }

    static let timeoutFormsCases: [(json: String, timeout: NotificationTimeout)] = [
        (#""server-default""#, NotificationTimeout.serverDefault), (#""never""#, .never),
        ("-1", .serverDefault), ("0", .never), ("2500", .milliseconds(2500)),
    ]

    @Test("timeouts decode from names and wire numbers", arguments: timeoutFormsCases)
    func timeoutForms(json: String, timeout: NotificationTimeout) throws {
        #expect(try decode(NotificationTimeout.self, from: json) == timeout)
        #expect(try roundTrip(timeout) == timeout)
    }

    @Test("timeout wire values follow the freedesktop convention")
    func timeoutWireValues() {
        #expect(NotificationTimeout.serverDefault.wireValue == -1)
        #expect(NotificationTimeout.never.wireValue == 0)
        #expect(NotificationTimeout.milliseconds(750).wireValue == 750)
        #expect(NotificationTimeout(wireValue: -1) == .serverDefault)
        #expect(NotificationTimeout(wireValue: 0) == .never)
        #expect(NotificationTimeout(wireValue: 9) == .milliseconds(9))
        #expect(NotificationTimeout(wireValue: -2) == nil)
    }

    @Test("urgency raw values are the freedesktop bytes")
    func urgencyBytes() throws {
        #expect(NotificationUrgency.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(try decode(NotificationUrgency.self, from: "1") == .normal)
        #expect(try decode(NotificationUrgency.self, from: #""low""#) == .low)
        #expect(NotificationUrgency(name: "critical") == .critical)
    }

    @Test(
        "unknown sound, timeout and urgency values are rejected",
        arguments: [
            #"{"sound":"loud"}"#, #"{"sound":{"volume":3}}"#, #"{"timeout":-2}"#, #"{"timeout":"soon"}"#,
            #"{"urgency":"urgent"}"#, #"{"urgency":3}"#, #"{"timeout":4294967296}"#,
        ]
    )
    func rejectsUnknownValues(json: String) {
        #expect(throws: DecodingError.self) { try decode(NotificationContent.self, from: json) }
    }

    @Test("responses survive an encode-decode round trip and classify their action")
    func responses() throws {
        let response = NotificationResponse(
            notificationID: "n-1",
            actionID: "reply",
            userText: "On my way 🚲",
            activationToken: "tok:1",
            userInfo: ["conversation": 7]
        )
        #expect(try roundTrip(response) == response)
        #expect(try encodedJSON(response)["user-text"] == "On my way 🚲")
        #expect(!response.isDefaultAction && !response.isDismissal)
        #expect(NotificationResponse(notificationID: "n", actionID: "default").isDefaultAction)
        #expect(NotificationResponse(notificationID: "n", actionID: "dismiss").isDismissal)
        let bare = try decode(NotificationResponse.self, from: #"{"notification-id":"n","action-id":"default"}"#)
        #expect(bare == NotificationResponse(notificationID: "n", actionID: "default"))
    }
}
