import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `Responded` reaches the poster before `Closed` on every path, so that a client that stops listening at `Closed`
/// has the response (and its typed text) already.
@Suite("Responded comes before Closed")
struct SignalOrderTests {
    /// How the user answers.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        /// A reply typed into the server's own field (`inline-reply`), which closes the notification after it.
        case inlineReply
        /// A reply typed into the bridge's prompt, which opens once the server has closed the notification.
        case prompt
        /// A plain button, after which the server closes the notification.
        case plainAction

        var testDescription: String { rawValue }
    }

    @Test("the poster hears Responded, then Closed", arguments: Path.allCases)
    func respondedFirst(_ path: Path) async throws {
        let prompt = [try ExecutableScript.temporary("#!/bin/sh\necho typed words\n", name: "prompt-answer")]
        let profile: NotificationServerProfile = path == .inlineReply ? .fullFeatured : .dunst
        try await DaemonFixture.with(profile, promptCommand: prompt) { fixture in
            let signals = try await fixture.client.signals(matching: BridgeProxy.signals([.responded, .closed])) {
                BridgeEvent($0)
            }
            let actions = path == .plainAction ? ActionList.plain(id: "reply") : ActionList.textInput(id: "reply")
            let id = try await fixture.post([PostKeys.title.name: .string("Ann"), PostKeys.actions.name: actions])
            let shown = try await fixture.nextNotification()
            switch path {
            case .inlineReply: try await fixture.scripted.reply(id: shown.id, text: "typed words")
            case .prompt, .plainAction: try await fixture.scripted.invokeAction(id: shown.id, key: "reply")
            }
            let order = try await withTimeout(waitingFor: "Responded and Closed for \(id)") {
                var order: [String] = []
                for await event in signals {
                    switch event {
                    case .responded(let response) where response.notificationID == id:
                        order.append(BridgeSignal.responded.name)
                        #expect(response.text == (path == .plainAction ? nil : "typed words"))
                    case .closed(id, _):
                        order.append(BridgeSignal.closed.name)
                    default:
                        continue
                    }
                    if order.count == 2 { return order }
                }
                throw TestSupportError("the signals ended after \(order)")
            }
            #expect(order == [BridgeSignal.responded.name, BridgeSignal.closed.name])
        }
    }
}
