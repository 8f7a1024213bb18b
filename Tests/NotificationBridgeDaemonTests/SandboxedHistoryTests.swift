import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import Testing

extension SandboxedPeerTests {
    @Test("it cannot read, answer or show again another app's history; its own it reads without naming itself")
    func anotherAppsHistoryIsOutOfReach() async throws {
        try await Self.with { fixture, sandbox, bankID in
            try await fixture.call(BridgeMethod.withdraw.name, [.string(bankID)])
            let bankFilter = DBusValue.vardict([FilterKeys.appName.name: .string(Self.bank)])
            // Written once the host lists it.
            try await withTimeout(waitingFor: "the bank's notification in the history") {
                while !"\(try await fixture.call(BridgeMethod.listHistory.name, [bankFilter]))".contains(bankID) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            let listed = await Self.failure(fixture, app, BridgeMethod.listHistory.name, [bankFilter])
            #expect(listed?.name == BridgeError.accessDenied.rawValue, "\(String(describing: listed))")
            let own = try await fixture.call(BridgeMethod.listHistory.name, [.vardict([:])], from: app)
            #expect(!"\(own)".contains(bankID), "its own history holds nothing of the bank's")
            let acted = await Self.failure(
                fixture, app, BridgeMethod.act.name, [.string(bankID), .string("reply"), .vardict([:])])
            #expect(acted?.name == BridgeError.accessDenied.rawValue, "\(String(describing: acted))")
            let presented = await Self.failure(fixture, app, BridgeMethod.present.name, [.string(bankID)])
            #expect(presented?.name == BridgeError.accessDenied.rawValue, "\(String(describing: presented))")
        }
    }

    @Test(
        "it can neither answer nor show again its own notification that a host program posted with a command")
    func hostCommandIsNotRunByIt() async throws {
        try await Self.with { fixture, sandbox, _ in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Clean up?"), PostKeys.appName.name: .string(Self.evil),
                PostKeys.actions.name: ActionList.plain(id: "yes"), PostKeys.exec.name: .strings(["/bin/true"]),
            ])
            let shown = try await fixture.nextNotification()
            #expect(try await fixture.scripted.expire(id: shown.id))
            let filter = DBusValue.vardict([FilterKeys.appName.name: .string(Self.evil)])
            try await withTimeout(waitingFor: "the expired notification in the history") {
                while !"\(try await fixture.call(BridgeMethod.listHistory.name, [filter]))".contains(id) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            let acted = await Self.failure(
                fixture, app, BridgeMethod.act.name, [.string(id), .string("yes"), .vardict([:])])
            #expect(acted?.name == BridgeError.accessDenied.rawValue, "\(String(describing: acted))")
            #expect(acted?.message.contains("command of the host") == true, "\(String(describing: acted))")
            #expect(acted?.message.contains(BridgeMethod.present.name) == false, "it is refused too: not suggested")
            // Shown again, the user's click would run the host's command on the app's behalf.
            let presented = await Self.failure(fixture, app, BridgeMethod.present.name, [.string(id)])
            #expect(presented?.name == BridgeError.accessDenied.rawValue, "\(String(describing: presented))")
            #expect(presented?.message.contains("command of the host") == true, "\(String(describing: presented))")
            #expect(
                !(try await fixture.scripted.shownNotifications.contains { $0.summary == "Clean up?" }),
                "it was not shown again")
            // Its own listing says the same: not answerable by it.
            let listed = try await fixture.call(BridgeMethod.listHistory.name, [filter], from: app)
            let entry = try #require(
                (listed.first.flatMap { value -> [DBusValue]? in
                    if case .array(_, let items) = value { return items }
                    return nil
                } ?? []).compactMap(HistoryEntry.init).first { $0.id == id })
            #expect(!entry.isAnswerable)
        }
    }
}
