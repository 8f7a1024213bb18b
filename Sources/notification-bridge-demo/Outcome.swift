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
    mutating func record(_ report: BridgeEvent) throws -> [String] {
        switch report {
        case .responded(let response):
            let id = response.notificationID
            guard let message = messages[id] else { return [] }
            var line = "Mail's handler got the response to “\(message.title)”: '\(response.actionID)'"
            if let text = response.text { line += ", typed text “\(text)”" }
            if let token = response.activationToken {
                line += ", activation token \(token) (a real app would be raised with it)"
            }
            line += ", user info \(response.userInfoJSON)"
            if checksResponses {
                try check(message, action: response.actionID, text: response.text, token: response.activationToken)
            }
            finished.insert(id)
            return [line]
        case .closed(let id, let reason):
            // A dismissal comes as a 'dismiss' response too: the category asks for it.
            guard let message = messages[id], !finished.contains(id), reason != .dismissed else { return [] }
            let why = reason == .expired ? "expired" : "was closed (reason \(reason.rawValue))"
            // A response may still follow a close (an action held until the session is unlocked).
            if !checksResponses { finished.insert(id) }
            return ["“\(message.title)” \(why)."]
        case .fired, .settingsChanged, .desktopDoNotDisturbChanged:
            return []
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
