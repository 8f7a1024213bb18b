import Testing

@testable import NotificationBridgeCommands

/// The table of notify-send's wait: each event while waiting, and what it does.
@Suite("notify-send's wait")
struct NotifySendWaitTests {
    typealias Event = NotifySendWait.Event
    typealias Effect = NotifySendWait.Effect

    static let actions = NotifySendActions(["Foo", "bar=Bar", "default=Open"])

    @Test(
        "one event while waiting: its effects, and whether the wait is over",
        arguments: [
            ([.invoked(key: "bar")], [.report(action: "bar", activationToken: nil), .close, .finish], true),
            ([.invoked(key: "BAR")], [.report(action: "BAR", activationToken: nil), .close, .finish], true),
            ([.invoked(key: "0")], [.report(action: "0", activationToken: nil), .close, .finish], true),
            (
                [.activationToken("t"), .invoked(key: "bar")],
                [.report(action: "bar", activationToken: "t"), .close, .finish], true
            ),
            ([.invoked(key: "nope")], [.say("Received unknown action nope")], false),
            ([.closed], [.finish], true),
            ([.interrupted], [.say("Wait cancelled, closing notification"), .close, .finish], true),
            ([.timedOut], [.say("Wait timeout expired"), .finish], true),
            ([.closed, .invoked(key: "bar"), .interrupted], [.finish], true),
        ] as [([Event], [Effect], Bool)])
    func table(_ events: [Event], _ effects: [Effect], _ finished: Bool) {
        var wait = NotifySendWait(actions: Self.actions, clickKey: "default")
        #expect(events.flatMap { wait.handle($0) } == effects)
        #expect(wait.isFinished == finished)
    }

    @Test("the server's click on the body of a notification without a default action is not warned about")
    func click() {
        var wait = NotifySendWait(actions: NotifySendActions(["Foo"]), clickKey: "default-action")
        #expect(wait.handle(.invoked(key: "default-action")).isEmpty)
        #expect(!wait.isFinished)
    }

    @Test("actions: unnamed ones numbered by their -A place, empty ones dropped, a name again replaces and moves last")
    func actions() {
        let actions = NotifySendActions(["a=A", " Two ", "=x", "b=", "B=Again", "c = C "])
        #expect(actions.all.map { [$0.name, $0.label] } == [["a", "A"], ["1", "Two"], ["B", "Again"], ["c", "C"]])
        #expect(NotifySendActions(["x=One", "y=Two", "X=Three"]).all.map(\.label) == ["Two", "Three"])
    }
}
