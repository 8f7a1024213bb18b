import DBusCore
import NotificationBridgeAPI

/// What has come back for each message the demo posted, and — for the scripted run — whether it is what the script
/// asked for.
struct Outcome {
    private let messages: [String: DemoMessages.Message]
    private let checksResponses: Bool
    /// Ids of the messages that got a response, or closed without one.
    private var finished: Set<String> = []

    /// - Parameters:
    ///   - messages: the messages posted, by the id the daemon gave each.
    ///   - checksResponses: whether each response must be the scripted one (and closing without one does not count).
    init(messages: [String: DemoMessages.Message], checksResponses: Bool) {
        self.messages = messages
        self.checksResponses = checksResponses
    }

    /// Whether every message has its outcome.
    var isComplete: Bool { finished.count == messages.count }

    /// The messages still waiting, said for a failure message.
    var missing: String {
        let waiting = messages.filter { !finished.contains($0.key) }.values.map { message in
            "“\(message.title)” (expected '\(message.action)')"
        }
        return "no response yet for " + waiting.sorted().joined(separator: ", ")
    }

    /// Takes a report from the daemon; returns the lines to show.
    ///
    /// - Throws: ``DemoFailure`` in the scripted run when a response is not the one the script chose.
    mutating func record(_ report: BridgeClient.Report) throws -> [String] {
        switch report {
        case .responded(let id, let action, let response):
            guard let message = messages[id] else { return [] }
            let text = response[ResponseKeys.text.name]?.stringValue
            let token = response[ResponseKeys.activationToken.name]?.stringValue
            var line = "Mail's handler got the response to “\(message.title)”: '\(action)'"
            if let text { line += ", typed text “\(text)”" }
            if let token { line += ", activation token \(token) (a real app would be raised with it)" }
            if let userInfo = response[ResponseKeys.userInfo.name]?.stringValue { line += ", user info \(userInfo)" }
            if checksResponses { try check(message, action: action, text: text, token: token) }
            finished.insert(id)
            return [line]
        case .closed(let id, let reason):
            // A dismissal comes as a 'dismiss' response too: the category asks for it.
            guard let message = messages[id], !finished.contains(id), reason != 2 else { return [] }
            let why =
                switch reason {
                case 1: "expired"
                default: "was closed (reason \(reason))"
                }
            // A response may still follow a close (an action held until the session is unlocked).
            if !checksResponses { finished.insert(id) }
            return ["“\(message.title)” \(why)."]
        }
    }

    private func check(_ message: DemoMessages.Message, action: String, text: String?, token: String?) throws {
        guard action == message.action else {
            throw DemoFailure("“\(message.title)” got '\(action)', but the script chose '\(message.action)'")
        }
        if let expected = message.text, text != expected {
            throw DemoFailure(
                "“\(message.title)” got the text \(text.map { "“\($0)”" } ?? "nothing"), but the "
                    + "script typed “\(expected)”")
        }
        let foreground = message.action == "open"
        if foreground && token == nil {
            throw DemoFailure(
                "“\(message.title)”: '\(action)' is a foreground action, but its response has no "
                    + "activation token")
        }
        if !foreground && token != nil {
            throw DemoFailure(
                "“\(message.title)”: '\(action)' is a background action, but its response carries an "
                    + "activation token")
        }
    }
}
