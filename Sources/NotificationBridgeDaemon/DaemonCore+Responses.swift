import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Responses, closures and `WaitForResponse`.
extension DaemonCore {
    // MARK: Responses

    /// Delivers a response to the one place chosen when the notification was posted; for the posting connection,
    /// once it has left the bus, to the connection attached as the notification's app.
    func respond(_ response: NotificationResponse, route: ResponseRoute, appName: String, foreground: Bool) async {
        let response = BridgeResponse(response, foreground: foreground)
        let id = response.notificationID
        responseComing[id] = false
        logger.debug("response", metadata: [
            "notification.id": "\(id)", "notification.action": "\(response.actionID)",
            "notification.route": "\(route.kind)", "response.has-text": "\(response.text != nil)",
        ])
        switch route {
        case .poster(let poster):
            if let receiver = await responseReceiver(poster: poster, appName: appName) {
                try? connection.emit(
                    path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: "Responded",
                    arguments: [.string(id), .string(response.actionID), response.dictionary], destination: receiver)
            }
            if let calls = waits.removeValue(forKey: id), !calls.isEmpty {
                for call in calls { call.reply([.string(response.actionID), response.dictionary]) }
            } else {
                kept[id] = (kept[id] ?? []).suffix(15) + [response]
            }
        case .command(let argv):
            do {
                try CommandLauncher.launch(
                    argv, variables: response.environment, input: response.text.map { Array($0.utf8) },
                    logger: logger)
            } catch {
                logger.warning("cannot start the notification's command", metadata: [
                    "notification.id": "\(id)", "error": "\(error)",
                ])
            }
        case .application(let desktopEntry, let action):
            activations.activate(desktopEntry: desktopEntry, action: action ?? response.actionID, response: response)
        }
    }

    // MARK: Closures

    /// A notification left the server: its poster gets `Closed`; waiting calls fail unless a response is on its way.
    func closed(_ closure: DesktopNotificationCenter.Closure) {
        guard let record = posted.removeValue(forKey: closure.id) else { return }
        let reason: UInt32
        let why: String
        switch closure.reason {
        case _ where closure.dismissed:
            (reason, why) = (2, "was dismissed by the user")
        case .expired:
            (reason, why) = (1, "expired")
        case .undefined:
            (reason, why) = (4, "was closed by the notification server")
        case .dismissed, .closedByCall:
            (reason, why) = (3, "was closed")
        }
        ended[closure.id] = why
        forgetDelivered(closure.id)
        emitClosed(id: closure.id, reason: reason, to: record.poster)
        // After an action the response comes (or came) by itself; a reported dismissal comes as a response too.
        let responseFollows = closure.acted || (closure.dismissed && record.reportsDismissal)
        if !responseFollows {
            failWaits(closure.id, message: "notification '\(closure.id)' \(why) without a response")
        } else if case .poster = record.route, responseComing[closure.id] == nil {
            // No response yet: it comes later (the prompt is open), and a late WaitForResponse waits for it.
            responseComing[closure.id] = true
        }
        logger.debug("closed", metadata: ["notification.id": "\(closure.id)", "notification.reason": "\(reason)"])
    }

    func emitClosed(id: String, reason: UInt32, to poster: String) {
        try? connection.emit(
            path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: "Closed",
            arguments: [.string(id), .uint32(reason)], destination: poster)
    }

    // MARK: Waiting

    /// Answers `WaitForResponse` now with a kept response, or later when the user acts; fails it when the
    /// notification closes without a response.
    func waitForResponse(_ call: DBusMethodCall) {
        do throws(DBusFailure) {
            try checkRunning()
            guard case .string(let id)? = call.arguments.first else { return }
            try NotificationID.check(id)
            if var responses = kept[id], !responses.isEmpty {
                let response = responses.removeFirst()
                kept[id] = responses.isEmpty ? nil : responses
                call.reply([.string(response.actionID), response.dictionary])
                return
            }
            if responseComing[id] == true {
                waits[id, default: []].append(call)
                return
            }
            guard let record = posted[id] ?? scheduled[id] else {
                if let why = ended[id] {
                    throw DBusFailure(
                        name: BridgeError.closed, message: "notification '\(id)' \(why) without a response")
                }
                throw DBusFailure(
                    name: BridgeError.unknownNotification,
                    message: "no notification has id \(quotedForMessage(id)); use an id Post returned")
            }
            switch record.route {
            case .poster:
                break
            case .command:
                throw DBusFailure(
                    name: BridgeError.notSupported,
                    message: "notification '\(id)' sends its responses to its 'exec' command; post without 'exec' to "
                        + "wait for responses")
            case .application(let desktopEntry, _):
                throw DBusFailure(
                    name: BridgeError.notSupported,
                    message: "notification '\(id)' sends its responses to the app \(quotedForMessage(desktopEntry)); "
                        + "post without 'app-action' to wait for responses")
            }
            guard waits.values.reduce(0, { $0 + $1.count }) < Self.maximumWaits else {
                throw DBusFailure(
                    name: BridgeError.limitExceeded,
                    message: "\(Self.maximumWaits) WaitForResponse calls are already waiting; let some finish first")
            }
            waits[id, default: []].append(call)
        } catch {
            call.fail(error)
        }
    }

    func failWaits(_ id: String, message: String) {
        guard let calls = waits.removeValue(forKey: id) else { return }
        for call in calls { call.fail(name: BridgeError.closed, message: message) }
    }

    /// Forgets the calls of a connection that left the bus, so that a response is kept for a later call instead of
    /// being sent to nobody.
    func connectionLeft(_ uniqueName: String) {
        attachments.remove(uniqueName)
        for (id, calls) in waits {
            let remaining = calls.filter { $0.sender != uniqueName }
            waits[id] = remaining.isEmpty ? nil : remaining
        }
    }

    /// Stops taking calls and fails every waiting one.
    func beginShutdown() {
        stopping = true
        let all = waits.values.flatMap { $0 }
        waits = [:]
        for call in all {
            call.fail(
                name: BridgeError.shuttingDown,
                message: "notification-bridged is stopping; call WaitForResponse again once it is back (D-Bus "
                    + "activation starts it anew)")
        }
    }
}
