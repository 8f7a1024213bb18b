import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// A prompt for typed text that ends without text ends its notification: nothing waits for a response that will
/// never come.
@Suite("Prompts that end without text")
struct PromptEndingTests {
    /// How a prompt can end without text.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        /// The user pressed Cancel or Escape: the program exits with status 1 and prints nothing.
        case cancelled
        /// The prompt program cannot be started (its interpreter is missing).
        case failedToStart
        /// The prompt was killed while it was open.
        case killed

        var testDescription: String { rawValue }

        /// The daemon's `--prompt-command` for this ending.
        func command() throws -> [String] {
            switch self {
            case .cancelled:
                [try ExecutableScript.temporary("#!/bin/sh\nexit 1\n", name: "prompt-cancel")]
            case .failedToStart:
                [try ExecutableScript.temporary("#!/nonexistent/interpreter\n", name: "prompt-broken")]
            case .killed:
                [try ExecutableScript.temporary("#!/bin/sh\nkill -KILL $$\n", name: "prompt-killed")]
            }
        }
    }

    private static let closedRule = DBusMatchRule(
        sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
        member: BridgeSignal.closed.name)

    @Test(
        "every wait ends with Error.Closed: one made before the action, one made after; nothing is left listed",
        arguments: Ending.allCases)
    func waitsEnd(_ ending: Ending) async throws {
        try await DaemonFixture.with(.dunst, promptCommand: try ending.command()) { fixture in
            let closedSignals = try await fixture.client.signals(matching: Self.closedRule)
            let id = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.textInput(id: "reply"),
            ])
            let shown = try await fixture.nextNotification()
            // The fixture's calls are bounded, so this ends (as a failure) even if the daemon never answers it.
            async let early = outcome { try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)]) }
            _ = try await fixture.client.nameOwner(of: BridgeAPI.busName)

            try await fixture.scripted.invokeAction(id: shown.id, key: "reply")
            let closed = try await closedSignals.first(waitingFor: BridgeSignal.closed.name)
            #expect(closed.arguments == [.string(id), .uint32(3)])
            let earlyResult = await early
            #expect(earlyResult.bridgeError == BridgeError.closed)
            #expect(earlyResult.failureMessage?.contains("without") == true)

            let late = await outcome { try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)]) }
            #expect(late.bridgeError == BridgeError.closed)
            let delivered = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])])
            #expect(delivered.first?.elements?.isEmpty == true)
        }
    }

    @Test("a category that reports dismissals gets its dismiss when the prompt is cancelled")
    func cancelledPromptReportsDismissal() async throws {
        try await DaemonFixture.with(.dunst, promptCommand: try Ending.cancelled.command()) { fixture in
            try await fixture.call(
                BridgeMethod.registerCategory.name,
                [
                    .string("org.example.chat"), ActionList.textInput(id: "reply"),
                    .vardict([CategoryOptionKeys.reportsDismissal.name: .boolean(true)]),
                ])
            let id = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.category.name: .string("org.example.chat"),
            ])
            let shown = try await fixture.nextNotification()
            async let waited = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
            _ = try await fixture.client.nameOwner(of: BridgeAPI.busName)
            try await fixture.scripted.invokeAction(id: shown.id, key: "reply")
            let reply = try await waited
            #expect(reply.first == .string("dismiss"))
            #expect(reply.last?.stringKeyedEntries?[ResponseKeys.text.name] == nil)
        }
    }
}
