import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// A key the daemon refuses in `Post` is named by its key for a D-Bus caller (`gdbus`) and by its option for a user of
/// the command line, both from the parts of one error: the command line rewrites no text of the daemon's.
@Suite("a key the daemon refuses is named by key and by option")
struct KeyRefusalTests {
    /// A `Post` whose value for `key` the daemon refuses, and the option the command line must name.
    struct Case: Sendable, CustomStringConvertible {
        var key: String
        var value: DBusValue
        var option: String
        /// The place of the key when it is not the notification itself (an action's).
        var place = "notification"
        var description: String { "\(place) key '\(key)' → \(option)" }

        /// `Post`'s argument: a title, and the refused value.
        var entries: DBusValue {
            if place == "notification" {
                return .vardict([PostKeys.title.name: .string("Refused"), key: value])
            }
            let action: DBusValue = .vardict([
                ActionKeys.id.name: .string("reply"), ActionKeys.title.name: .string("Reply"), key: value,
            ])
            return .vardict([
                PostKeys.title.name: .string("Refused"), PostKeys.actions.name: .array(element: "a{sv}", [action]),
            ])
        }
    }

    static let cases: [Case] = [
        Case(key: PostKeys.delay.name, value: .double(-5), option: "--in"),
        Case(key: PostKeys.fireDate.name, value: .string("tomorrow"), option: "--at"),
        Case(key: PostKeys.urgency.name, value: .string("loud"), option: "--urgency"),
        Case(key: PostKeys.sound.name, value: .string(""), option: "--sound"),
        Case(key: PostKeys.userInfo.name, value: .string("not json"), option: "--user-info"),
        Case(key: PostKeys.replaces.name, value: .string("abc"), option: "--replace"),
        Case(key: PostKeys.exec.name, value: .strings(["./handler"]), option: "the command after '--'"),
        Case(
            key: PostKeys.hints.name, value: .vardict(["x-kde-reply-placeholder-text": .string("Reply")]),
            option: "--hint"),
        Case(key: PostKeys.interruptionLevel.name, value: .string("loudest"), option: "--level"),
        Case(key: PostKeys.timeout.name, value: .string("soon"), option: "--timeout"),
        Case(key: PostKeys.snooze.name, value: .array(element: "i", [.int32(0)]), option: "--snooze"),
        Case(
            key: ActionKeys.textInputPlaceholder.name, value: .int32(7), option: "the placeholder of --action 1",
            place: "actions[0]"),
    ]

    @Test("the error carries the key; gdbus shows it, the command line its option", arguments: cases)
    func namedBothWays(_ refused: Case) async throws {
        try await CLIFixture.with { fixture in
            let connection = try await fixture.bus.connect()
            defer { Task { await connection.close() } }
            let failure: DBusFailure
            do {
                _ = try await connection.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.post.name, arguments: [refused.entries])
                Issue.record("the daemon accepted \(refused); the case no longer breaks a rule")
                return
            } catch let error as DBusFailure {
                failure = error
            }
            let refusal = try #require(KeyFailure(failure), "\(failure) carries no key")
            #expect(refusal.key == refused.key && refusal.place == refused.place, "\(refusal)")
            #expect(failure.message == refusal.message)
            #expect(refusal.failure == failure, "the parts make the message again")

            let shown = BridgeClient.failure(failure)
            #expect(shown.message.hasPrefix("notification-bridge: \(refused.option) "), "\(shown.message)")
            #expect(!shown.message.contains("\(refused.place) key"), "\(shown.message)")
            #expect(shown.status == ExitStatus.usage)

            let gdbus = try await ProcessRunner.run(
                [
                    "gdbus", "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                    BridgeAPI.objectPath.rawValue, "--method", "\(BridgeAPI.interfaceName).\(BridgeMethod.post.name)",
                    refused.entries.description,
                ], environment: fixture.environment, timeout: .seconds(20))
            #expect(gdbus.status != 0)
            #expect(
                gdbus.standardError.contains("\(refused.place) key '\(refused.key)' \(refusal.problem.prefix(20))"),
                "\(gdbus.standardError)")
        }
    }

    @Test("an error about no key is shown as the daemon wrote it")
    func otherErrorsAsWritten() {
        let failure = BridgeError.notSupported.failure("the server cannot show sounds; leave --sound out")
        #expect(KeyFailure(failure) == nil)
        #expect(BridgeClient.failure(failure).message == "notification-bridge: \(failure.message)")
        // A message not of the form is shown as written.
        let unknown = BridgeError.invalid("notification has unknown key 'colour'; known keys: title, body")
        #expect(KeyFailure(unknown) == nil)
        #expect(BridgeClient.failure(unknown).message == "notification-bridge: \(unknown.message)")
        // A key inside a key's dictionary is the outer key's problem.
        let calendar = PostKeys.calendar.name
        let nested = BridgeError.invalid("notification key '\(calendar)' key 'hour' is 25; use 0 to 23")
        #expect(
            KeyFailure(nested)
                == KeyFailure(place: "notification", key: calendar, problem: "key 'hour' is 25; use 0 to 23"))
    }
}
