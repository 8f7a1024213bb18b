import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// A notification server that is slow, hung or gone holds up only the calls that need it: every other client, and
/// every other method, is answered meanwhile.
@Suite("A slow, hung or departed notification server")
struct SlowServerTests {
    @Test("while ten Posts wait on a server that holds every Notify, every other method answers; then the Posts do")
    func otherCallsAnswerWhileNotifyIsOut() async throws {
        try await DaemonFixture.with { fixture in
            let server = try fixture.scripted
            await server.setNotifyAnswer(.never)
            let posters = try await connections(10, on: fixture.bus)
            let posts = Task {
                try await withThrowingTaskGroup(of: String.self) { group in
                    for (index, poster) in posters.enumerated() {
                        group.addTask {
                            try await fixture.post(
                                [
                                    PostKeys.title.name: .string("Post \(index)")
                                ], from: poster)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            try await fixture.nextHeldNotifies(10)

            // Every one of these is answered while the ten Notify calls are out.
            let everyone: [DBusValue] = [.vardict([FilterKeys.appName.name: .string("NotificationBridge")])]
            let delivered = try await fixture.call(BridgeMethod.listDelivered.name, everyone).first?.elements ?? []
            #expect(delivered.count == 10, "the notifications being posted are listed")
            _ = try await fixture.call(BridgeMethod.listPending.name, [.vardict([:])])
            _ = try await fixture.call(BridgeMethod.listCategories.name)
            _ = try await fixture.call(BridgeMethod.getServerInformation.name)
            try await fixture.call(
                BridgeMethod.registerCategory.name,
                [.string("org.example.message"), ActionList.plain(id: "open"), .vardict([:])])
            let scheduled = try await fixture.post([
                PostKeys.title.name: .string("Later"), PostKeys.delay.name: .double(3600),
            ])
            try await fixture.call(BridgeMethod.withdraw.name, [.string(scheduled)])

            // A WaitForResponse for one still being posted is taken, and ends when that one is withdrawn.
            let id = try #require(
                delivered.first?.stringKeyedEntries?[ListedKeys.id.name]?.unwrappedVariant.stringValue)
            async let waited = outcome {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: posters[0])
            }
            _ = try await posters[0].nameOwner(of: BridgeAPI.busName)
            try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
            #expect(await waited.bridgeError == BridgeError.closed)

            await server.setNotifyAnswer(.immediately)
            let ids = try await withTimeout(waitingFor: "the ten Posts to be answered") { try await posts.value }
            #expect(Set(ids).count == 10)
            for poster in posters { await poster.close() }
        }
    }

    @Test("a server that never answers: Post fails with Error.ServerTimeout after the bound, and the daemon goes on")
    func hungServerTimesOut() async throws {
        // Long enough for the post after the hang to be answered in time on a loaded machine; the hung one waits it out.
        try await DaemonFixture.with(serverTimeout: .seconds(3)) { fixture in
            let server = try fixture.scripted
            await server.setNotifyAnswer(.never)
            let result = await outcome { try await fixture.post([PostKeys.title.name: .string("Stuck")]) }
            #expect(result.bridgeError == BridgeError.serverTimeout)
            #expect(result.failureMessage?.contains("did not answer in time") == true)
            // Nothing is left of it.
            let delivered = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])])
            #expect(delivered.first?.elements?.isEmpty == true)

            await server.setNotifyAnswer(.immediately)
            let id = try await fixture.post([PostKeys.title.name: .string("Unstuck")])
            #expect(!id.isEmpty)
        }
    }

    @Test("GetServerInformation says there is no server once it left, and names the next one that takes the name")
    func serverInformationFollowsTheOwner() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            let owners = try await fixture.client.nameOwnerChanges(of: NotificationServer.busName)
            let before = try await fixture.serverName()
            #expect(before == NotificationServerProfile.dunst.serverName)

            // The server's process exits: its connection goes, and the bus gives its name away.
            await fixture.serverConnection?.close()
            _ = try await owners.first(waitingFor: "the server to leave the bus")
            #expect(try await fixture.serverName() == "")
            let refused = await outcome { try await fixture.post([PostKeys.title.name: .string("Nobody")]) }
            #expect(refused.bridgeError == BridgeError.noServer)

            let connection = try await fixture.bus.connect()
            let other = NotificationServer()
            try await other.start(on: connection, profile: .xfce4Notifyd)
            async let otherRunning: Void = other.run()
            // The daemon reads the new server's information once it owns the name.
            let expected = NotificationServerProfile.xfce4Notifyd.serverName
            try await withTimeout(waitingFor: "GetServerInformation to name the new server") {
                while try await fixture.serverName() != expected { try await Task.sleep(for: .milliseconds(20)) }
            }
            await connection.close()
            await otherRunning
        }
    }

    private func connections(_ count: Int, on bus: PrivateBus) async throws -> [DBusConnection] {
        var connections: [DBusConnection] = []
        for _ in 0..<count { connections.append(try await bus.connect()) }
        return connections
    }
}

extension DaemonFixture {
    /// Returns once the scripted server holds `count` more `Notify` calls unanswered.
    func nextHeldNotifies(_ count: Int) async throws {
        let events = self.events
        try await withTimeout(waitingFor: "the server to hold \(count) Notify calls") {
            var held = 0
            for await event in events {
                if case .held = event { held += 1 }
                if held == count { return }
            }
            throw TestSupportError("the server stopped")
        }
    }

    /// The `server-name` GetServerInformation reports.
    func serverName() async throws -> String? {
        try await call(BridgeMethod.getServerInformation.name).first?.stringKeyedEntries?[
            ServerInformationKeys.serverName.name]?
            .unwrappedVariant.stringValue
    }
}

extension DBusValue {
    /// The elements of an array value, or `nil`.
    var elements: [DBusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }
}

extension Result {
    /// The bridge's error of a failure, or `nil`.
    var bridgeError: BridgeError? {
        if case .failure(let error) = self, let failure = error as? DBusFailure { return BridgeError(failure) }
        return nil
    }

    /// The message of a D-Bus failure, or `nil`.
    var failureMessage: String? {
        if case .failure(let error) = self { return (error as? DBusFailure)?.message }
        return nil
    }
}
