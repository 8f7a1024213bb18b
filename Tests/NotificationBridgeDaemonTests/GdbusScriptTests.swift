import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// `gdbus` scripts, run as they are written, against the daemon and a scripted server.
@Suite("gdbus scripts")
struct GdbusScriptTests {
    @Test("register a category, post with it, and WaitForResponse returns the action and the typed text")
    func categoryPostAndWait() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let registered = try await fixture.sh(GdbusScripts.registerCategory.script)
            #expect(registered.status == 0, "\(registered.standardError)")
            #expect(registered.output == GdbusScripts.registerCategory.output)

            let departures = try await fixture.client.signals(
                matching: DBusMatchRule(
                    sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged")
            ) { signal -> String? in
                guard signal.arguments.count == 3, case .string(let name) = signal.arguments[0], name.hasPrefix(":"),
                    signal.arguments[2] == .string("")
                else { return nil }
                return name
            }
            async let waited = fixture.sh(GdbusScripts.postAndWait.script)
            let shown = try await fixture.nextNotification()
            #expect(shown.appName == "Mail")
            #expect(shown.actions.map(\.key) == ["delete", "inline-reply", "archive"])
            #expect(shown.inlineReplyPlaceholder == "Your answer")
            // As a person would: after the script's Post has returned and its gdbus has left. A response while the
            // poster is still connected goes to the poster alone, text included.
            _ = try await departures.first(waitingFor: "the posting gdbus to leave the bus")
            try await fixture.scripted.reply(id: shown.id, text: "Yes, 12:30")

            let result = try await waited
            #expect(result.status == 0, "\(result.standardError)")
            let id = try idInDictionary(result.output)
            #expect(result.output == GdbusScripts.postAndWait.output?.replacingOccurrences(of: "$id", with: id))
        }
    }

    @Test("post without a category returns an id, and the server shows the notification")
    func postWithoutCategory() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.sh(GdbusScripts.post.script)
            #expect(result.status == 0, "\(result.standardError)")
            let id = try postedID(result.output)
            #expect(result.output == GdbusScripts.post.output?.replacingOccurrences(of: "$id", with: id))
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "Backup finished")
            #expect(shown.body == "42 files copied")
            #expect(shown.urgency == 0)
            #expect(shown.actions.isEmpty)
        }
    }

    @Test("Withdraw closes the notification and makes WaitForResponse fail with Closed")
    func withdrawFailsWait() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.sh(GdbusScripts.registerCategory.script)
            async let waited = fixture.sh(GdbusScripts.postAndWait.script)
            let shown = try await fixture.nextNotification()
            let listed = try await fixture.sh(GdbusScripts.listDelivered.script)
            let id = try idInDictionary(listed.output)

            let withdrawn = try await fixture.sh(GdbusScripts.withdraw.script, ["id": id])
            #expect(withdrawn.status == 0, "\(withdrawn.standardError)")
            #expect(withdrawn.output == GdbusScripts.withdraw.output)
            // Withdraw does not wait on the server, which closes it right after.
            try await fixture.nextClosure(of: shown.id)

            let result = try await waited
            #expect(result.status != 0)
            #expect(result.standardError.contains("io.github.NotificationBridge1.Error.Closed"))
            #expect(result.standardError.contains("notification '\(id)' was withdrawn"))
        }
    }

    @Test("ListDelivered and WithdrawAll act on the app named in the filter")
    func listAndWithdrawAll() async throws {
        try await DaemonFixture.with { fixture in
            let mine = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.appName.name: .string("Mail"),
            ])
            _ = try await fixture.post([PostKeys.title.name: .string("Disk"), PostKeys.appName.name: .string("Disks")])
            let listed = try await fixture.sh(GdbusScripts.listDelivered.script)
            #expect(listed.status == 0, "\(listed.standardError)")
            #expect(listed.output.contains("'id': <'\(mine)'>"))
            #expect(listed.output.contains("'app-name': <'Mail'>"))
            #expect(!listed.output.contains("Disks"))

            let withdrawn = try await fixture.sh(GdbusScripts.withdrawAll.script)
            #expect(withdrawn.output == GdbusScripts.withdrawAll.output?.replacingOccurrences(of: "$id", with: mine))
            let after = try await fixture.sh(GdbusScripts.listDelivered.script)
            #expect(after.output == "(@aa{sv} [],)")
        }
    }

    @Test("GetServerInformation reports the server and the bridge's choices")
    func serverInformation() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            let result = try await fixture.sh(GdbusScripts.serverInformation.script)
            #expect(result.status == 0, "\(result.standardError)")
            for part in [
                "'server-name': <'dunst'>", "'server-version': <'1.9.0'>", "'destructive-order': <'first'>",
                "'lock-source': <'none'>",
                "'text-input': <{'deliver-without-text': 'button-without-text', "
                    + "'hide': 'hidden'}>",
            ] {
                #expect(result.output.contains(part), "\(result.output)")
            }
        }
    }
}
