import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// What a client learns about the server before posting.
@Suite struct ServerInformationTests {
    @Test(arguments: allPresets)
    func gdbusSeesTheProfilesInformationAndCapabilities(_ preset: NamedProfile) async throws {
        try await ServerFixture.with(preset.profile) { fixture in
            let profile = preset.profile
            let information = try await gdbusCall("GetServerInformation", on: fixture)
            #expect(information.status == 0, "\(information.standardError)")
            let expectedInformation = [profile.serverName, profile.vendor, profile.version, profile.specVersion]
                .map(DBusValue.string).gvariantTupleText
            #expect(information.output == expectedInformation)

            let capabilities = try await gdbusCall("GetCapabilities", on: fixture)
            #expect(capabilities.output == [DBusValue.strings(profile.capabilities)].gvariantTupleText)

            let calls = await fixture.server.calls
            #expect(calls.map(\.member) == ["GetServerInformation", "GetCapabilities"])
            #expect(calls.allSatisfy { $0.sender.hasPrefix(":") && $0.arguments.isEmpty })
        }
    }

    @Test func introspectionShowsOnlyTheSignalsTheProfileSends() async throws {
        for (profile, replies) in [(NotificationServerProfile.plasma, true), (.dunst, false)] {
            try await ServerFixture.with(profile) { fixture in
                let result = try await runClient(
                    [
                        "gdbus", "introspect", "--session", "--dest", NotificationServer.busName, "--object-path",
                        NotificationServer.objectPath.rawValue,
                    ], on: fixture)
                #expect(result.status == 0, "\(result.standardError)")
                for member in [
                    "GetCapabilities", "Notify", "CloseNotification", "GetServerInformation",
                    "NotificationClosed", "ActionInvoked",
                ] {
                    #expect(result.standardOutput.contains(member), "\(member) missing from \(result.standardOutput)")
                }
                #expect(result.standardOutput.contains("NotificationReplied") == replies)
                #expect(result.standardOutput.contains("ActivationToken") == profile.sendsActivationTokenBeforeAction)
            }
        }
    }

    @Test func aSecondServerFailsClearlyWhileTheNameIsTaken() async throws {
        try await ServerFixture.with(.mako) { fixture in
            let other = try await fixture.bus.connect()
            let second = NotificationServer()
            await #expect(throws: NotificationServerError.nameTaken(owner: fixture.serverConnection.uniqueName)) {
                try await second.start(on: other, profile: .dunst)
            }
            #expect(await !second.isRunning)

            // Once the first has gone (its process exits: its connection closes), the name is free: the second takes
            // it and answers as dunst.
            let owners = try await fixture.client.nameOwnerChanges(of: NotificationServer.busName)
            await fixture.serverConnection.close()
            _ = try await owners.first(waitingFor: "the first server's name to go")
            try await second.start(on: other, profile: .dunst)
            async let secondRunning: Void = second.run()
            let information = try await fixture.call("GetServerInformation")
            #expect(try information.decode(String.self, String.self, String.self, String.self).0 == "dunst")
            await other.close()
            await secondRunning
            #expect(try await !fixture.client.nameHasOwner(NotificationServer.busName))
        }
    }

    @Test func aServerWhoseConnectionClosesDropsItsNotificationsAndStopsAnswering() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            try await fixture.notify(summary: "left behind")
            await fixture.serverConnection.close()
            // The events finish once its run() has ended.
            let events = fixture.events
            try await withTimeout(.seconds(10), waitingFor: "the server's events to finish") {
                for await _ in events {}
            }
            #expect(await fixture.server.notifications.isEmpty)
            await #expect(throws: NotificationServerError.notRunning) {
                try await fixture.server.dismiss(id: 1)
            }
            await #expect(throws: DBusFailure.self) {
                try await fixture.call("GetCapabilities")
            }
        }
    }
}
