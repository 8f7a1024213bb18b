import DBusCore
import NotificationBridgeAPI
import NotificationModel
import Testing

/// The daemon's signals are written and read by one type: what the daemon emits is what a client reads, and a signal
/// that is not the interface's, or whose arguments are wrong, is not read as one.
@Suite("the interface's signals")
struct BridgeEventTests {
    static let events: [BridgeEvent] = [
        .responded(
            BridgeResponse(
                notificationID: "3f9c2a7e1b4d5c6a", actionID: "reply", text: "On my way", activationToken: "token-1",
                userInfo: ["mailbox": .string("inbox"), "unread": .number(2)])),
        .responded(BridgeResponse(notificationID: "a", actionID: "default")),
        .fired(
            ListedNotification(
                id: "b", post: NotificationPost(content: NotificationContent(title: "Stand-up", appName: "Calendar")))),
        .settingsChanged(.global(doNotDisturb: true, source: .file)),
        .settingsChanged(
            .app(
                AppSettingsRecord(
                    app: "org.example.Mail", settings: AppNotificationSettings(isAllowed: false),
                    requested: [.alert, .sound], doNotDisturb: false, source: .gnome))),
        .closed(id: "c", reason: .dismissed),
        .closed(id: "d", reason: BridgeCloseReason(rawValue: 9)),
    ]

    @Test("each signal reads back as it was written, with the member and signature the interface describes")
    func roundTrip() {
        for event in Self.events {
            let signal = DBusSignal(
                sender: ":1.7", path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                member: event.signal.name, arguments: event.arguments)
            #expect(BridgeEvent(signal) == event)
            #expect(event.arguments.map(\.signature.rawValue).joined() == event.signal.signature, "\(event)")
        }
    }

    @Test("another interface's signal, an unknown member and wrong arguments are not read")
    func refusals() {
        let responded = Self.events[0]
        func signal(interface: String = BridgeAPI.interfaceName, member: String, _ arguments: [DBusValue]) -> DBusSignal
        {
            DBusSignal(
                sender: ":1.7", path: BridgeAPI.objectPath, interface: interface, member: member, arguments: arguments)
        }
        #expect(
            BridgeEvent(
                signal(
                    interface: "org.freedesktop.Notifications", member: BridgeSignal.responded.name,
                    responded.arguments)) == nil)
        #expect(BridgeEvent(signal(member: "Answered", responded.arguments)) == nil)
        #expect(BridgeEvent(signal(member: BridgeSignal.responded.name, Array(responded.arguments.prefix(2)))) == nil)
        #expect(BridgeEvent(signal(member: BridgeSignal.closed.name, [.string("c"), .int32(2)])) == nil)
        #expect(
            BridgeEvent(signal(member: BridgeSignal.fired.name, [.string("b"), .string("not a dictionary")])) == nil)
        var wrongType = WireEntries()
        wrongType.setUnchecked(SettingsKeys.allowed, .string("yes"))
        #expect(
            BridgeEvent(signal(member: BridgeSignal.settingsChanged.name, [.string("a"), wrongType.value])) == nil,
            "settings whose values are not of their keys' types are not read as settings")
    }

    @Test("the arguments of Responded name the notification and the action, whatever the dictionary says")
    func respondedArgumentsWin() throws {
        var entries = try #require(WireEntries(BridgeResponse(notificationID: "x", actionID: "y").dictionary))
        entries[ResponseKeys.text] = "hello"
        let event = BridgeEvent(.responded, arguments: [.string("id-1"), .string("open"), entries.value])
        #expect(event == .responded(BridgeResponse(notificationID: "id-1", actionID: "open", text: "hello")))
        var withoutCopies = WireEntries()
        withoutCopies[ResponseKeys.text] = "hello"
        let short = BridgeEvent(.responded, arguments: [.string("id-1"), .string("open"), withoutCopies.value])
        #expect(short == event, "a dictionary without its own id and action is read from the arguments")
    }
}
