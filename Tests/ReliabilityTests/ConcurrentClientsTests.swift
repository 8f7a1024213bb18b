import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// Many clients posting through the daemon at once, the server answering each notification as it comes.
    @Suite("concurrent clients")
    struct ConcurrentClientsTests {
        static let clients = 50
        static let notificationsPerClient = 200

        /// What a client saw: the ids it was given, and the responses it received (id, action, user-info text).
        struct ClientRun: Sendable {
            let client: Int
            let posted: [String]
            let responses: [(id: String, action: String, userInfo: String?)]
            let foreign: [String]
        }

        @Test("every response reaches the client that posted it, and no other")
        func fiftyClients() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                // The user, as fast as the notifications come: the action of each, on the server.
                let server = rig.server
                let events = rig.events
                let refused = Collector<String>()
                let answering = Task {
                    for await case .notified(let notification) in events {
                        do {
                            try await server.invokeAction(id: notification.id, key: "ok")
                        } catch {
                            refused.append("\(notification.summary): \(error)")
                        }
                    }
                }
                defer { answering.cancel() }

                let runs = try await withThrowingTaskGroup(of: ClientRun.self) { group in
                    for client in 0..<Self.clients {
                        group.addTask { try await Self.run(client: client, rig: rig) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(refused.all.isEmpty, "the server could not act on: \(refused.all.prefix(5))")
                #expect(runs.count == Self.clients)
                for run in runs {
                    #expect(
                        run.foreign.isEmpty,
                        "client \(run.client) received responses of others: \(run.foreign.prefix(5))")
                    #expect(Set(run.responses.map(\.id)) == Set(run.posted), "client \(run.client)")
                    #expect(run.responses.count == Self.notificationsPerClient, "client \(run.client)")
                    let numbers = Dictionary(uniqueKeysWithValues: run.posted.enumerated().map { ($1, $0) })
                    for response in run.responses {
                        #expect(response.action == "ok")
                        let expected = #"{"client":\#(run.client),"n":\#(numbers[response.id] ?? -1)}"#
                        #expect(response.userInfo == expected, "client \(run.client)")
                    }
                }
                #expect(daemon.poll() == nil, "the daemon exited; log: \(rig.logText.suffix(2000))")
            }
        }

        /// One client: its own connection, listening for `Responded`, posting one notification after the other.
        static func run(client: Int, rig: DaemonRig) async throws -> ClientRun {
            let connection = try await rig.bus.connect()
            defer { Task { await connection.close() } }
            let responded = try await connection.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, interface: BridgeAPI.interfaceName, member: BridgeSignal.responded.name))
            var posted: [String] = []
            for index in 0..<notificationsPerClient {
                posted.append(
                    try await rig.post(
                        [
                            PostKeys.title.name: .string("Client \(client), \(index)"),
                            PostKeys.actions.name: plainActions("ok"),
                            PostKeys.userInfo.name: .string(#"{"client": \#(client), "n": \#(index)}"#),
                        ], from: connection, ))
            }
            let mine = Set(posted)
            let received = Collector<String>()
            let gathered = await outcome {
                try await withTimeout(.seconds(120), waitingFor: "client \(client)'s responses") {
                    var responses: [(id: String, action: String, userInfo: String?)] = []
                    var foreign: [String] = []
                    for await signal in responded {
                        guard signal.arguments.count == 3, case .string(let id) = signal.arguments[0],
                            case .string(let action) = signal.arguments[1]
                        else { continue }
                        guard mine.contains(id) else {
                            foreign.append(id)
                            continue
                        }
                        received.append(id)
                        let response = signal.arguments[2].stringKeyedEntries
                        let userInfo = response?[ResponseKeys.userInfo.name]?.unwrappedVariant
                            .stringValue
                        responses.append((id, action, userInfo))
                        if responses.count == mine.count { break }
                    }
                    return (responses, foreign)
                }
            }
            guard case .success(let (responses, foreign)) = gathered else {
                throw TestSupportError("\(gathered); \(received.all.count) of \(posted.count) responses came")
            }
            return ClientRun(client: client, posted: posted, responses: responses, foreign: foreign)
        }
    }
}
