import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// A response as `WaitForResponse` returns it.
struct Response {
    var id: String
    var action: String
    var dictionary: DBusValue

    var entries: [String: DBusValue] { dictionary.stringKeyedEntries ?? [:] }
    var text: String? { WireEntries(dictionary)?[ResponseKeys.text] }

    /// Waits, without a time limit, for the response to notification `id`.
    ///
    /// - Throws: ``CLIFailure`` with status 3 when the notification closes without a response, 1 for other failures.
    static func wait(for id: String, client: BridgeClient) async throws -> Response {
        let response = try await client.call { try await $0.waitForResponse(id: id) }
        return Response(id: id, action: response.actionID, dictionary: response.dictionary)
    }

    /// The response as one JSON object: `id`, `action`, `text`, `activation-token`, `user-info` (an object).
    var json: JSONValue {
        guard case .object(var members) = Output.json(dictionary) else { return .null }
        members[ResponseKeys.id.name] = .string(id)
        members[ResponseKeys.action.name] = .string(action)
        return .object(members)
    }

    /// Prints the response: JSON, or the action on one line and the typed text, if any, on the next.
    func print(json asJSON: Bool) {
        if asJSON {
            Output.printJSON(json)
        } else {
            Terminal.current.print(action)
            if let text { Terminal.current.print(text) }
        }
    }
}

/// Prints what a closure without a response means, and returns the failure that exits with status 3.
func closedWithoutResponse(_ failure: CLIFailure, id: String, json: Bool) -> CLIFailure {
    guard failure.status == ExitStatus.closed else { return failure }
    if json {
        let message = failure.message.replacing("notification-bridge: ", with: "")
        Output.printJSON(
            .object([
                ResponseKeys.id.name: .string(id), ResponseKeys.action.name: .null, "closed": .bool(true),
                "message": .string(message),
            ]))
        return .closed("")
    }
    return failure
}
