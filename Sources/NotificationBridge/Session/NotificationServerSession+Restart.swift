import DBusCore
import NotificationModel

/// A server that takes the name: its information, and the notifications posted again to it.
extension NotificationServerSession {
    /// The information of a server that has just taken the name.
    ///
    /// A service may own the name a moment before it exports its object: GNOME Shell's gjs service asks for
    /// `org.freedesktop.Notifications` first and exports once it holds its own name, and a call in between is answered
    /// `UnknownMethod` (`UnknownObject` or `UnknownInterface` by other bindings). Such an answer is asked again, a
    /// little later each time, for at most 5 s; any other failure is thrown at once.
    private func arrivingServerInfo() async throws -> NotificationServerInfo {
        let notExportedYet: Set = [
            DBusFailure.Name.unknownMethod, DBusFailure.Name.unknownObject, DBusFailure.Name.unknownInterface,
        ]
        let deadline = ContinuousClock.now + .seconds(5)
        var pause = Duration.milliseconds(10)
        while true {
            do {
                return try await client.serverInfo()
            } catch let failure as DBusFailure
                where notExportedYet.contains(failure.name) && ContinuousClock.now + pause < deadline
            {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(500))
            }
        }
    }

    /// Takes in a change of owner of the notification name, in the bus's order with the server's signals.
    func serverOwnerChanged(_ owner: String?) async {
        generation += 1
        let generation = self.generation
        // Signals held for a Notify came from the previous owner, whose ids mean nothing now.
        earlySignals = []
        serverInfo = Self.noServer
        serverOwner = owner
        eventSink.yield(.serverChanged(owner: owner))
        guard let owner else {
            isServerAvailable = false
            encoder.server = serverInfo
            logger.info("the notification server went away; notifications will be posted again when one returns")
            return
        }
        // Read as a job: the loop goes on with the new server's signals meanwhile, in order.
        work.yield { [weak self] in await self?.serverArrived(owner, generation: generation) }
    }

    private func serverArrived(_ owner: String, generation: Int) async {
        let info: NotificationServerInfo
        do {
            info = try await arrivingServerInfo()
        } catch {
            logger.warning("the new notification server does not answer", metadata: ["error": "\(error)"])
            return
        }
        guard generation == self.generation else { return }
        serverInfo = info
        encoder.server = info
        router.server = info
        isServerAvailable = true
        eventSink.yield(.serverReady(owner: owner, info: info))
        let closesShownCopies = await displayKeptNotifications()
        // A notification posted to this very server (its Notify answered by it before the news of its arrival came)
        // is on it already: posting it again would show it twice. One whose Notify is out may be answered by the
        // previous server: it is looked at once its answer is in (its turn).
        let outstanding = Set(router.all.filter { $0.serverOwner != owner }.map(\.id)).union(postingIDs.keys)
        logger.info(
            "notification server restarted; posting outstanding notifications again",
            metadata: ["server.name": "\(info.name)", "count": "\(outstanding.count)"])
        for id in outstanding {
            guard generation == self.generation, !isStopping else { return }
            let turn = turns.reserve(id)
            await turns.wait(for: turn)
            await repost(id, to: owner, closesShownCopy: closesShownCopies, generation: generation)
            turns.end(turn)
        }
    }

    /// Posts one notification again to the server `owner`, during its turn: unless it was withdrawn, replaced or
    /// posted to that server meanwhile.
    private func repost(_ id: String, to owner: String, closesShownCopy: Bool, generation: Int) async {
        guard generation == self.generation, var notification = router.notification(id: id),
            notification.serverOwner != owner
        else { return }
        let encoded = encoder.encode(
            notification.content, category: notification.category, senderPID: processID,
            extraHints: notification.hints)
        if closesShownCopy {
            // Replacing the copy would keep it in place, but GNOME Shell 43 then drops the buttons of a banner on the
            // screen: closed, and shown again below with buttons that answer.
            try? await client.closeNotification(notification.serverID, destination: owner)
        }
        let inFlight = notifyStarted()
        do {
            notification.sentAt = .now
            let placed = try await notify(encoded.request)
            notification.serverID = placed.id
            notification.encoded = encoded
            notification.acted = false
            notification.closeRequested = false
            notification.serverOwner = placed.server
            router.follow(notification)
            eventSink.yield(.reposted(id: id, serverID: placed.id, server: placed.server))
            endWhenExpired(id: id, serverID: placed.id, server: placed.server, timeout: notification.content.timeout)
        } catch {
            logger.warning("cannot post again", metadata: ["notification.id": "\(id)"])
        }
        await notifyEnded(inFlight)
    }

    /// Notes which process shows the notifications, where that is not the owner of the notification name
    /// (``NotificationServerInfo/displayBusName``), and says whether it is the same process as when a server last
    /// arrived.
    ///
    /// When it is, the server that just arrived is a restarted service in front of the same display (GNOME Shell's
    /// notification service restarting alone): the notifications posted through the previous service are still on
    /// the screen, with buttons whose signals reach nobody. Before they are posted again, those copies must be closed
    /// (the new service forwards a close of an id it does not know), so that no second copy appears and the one the
    /// user sees is the one that answers. When the display process changed too, the old ids mean nothing to it (or
    /// another application's notification): nothing is closed.
    func displayKeptNotifications() async -> Bool {
        guard let name = serverInfo.displayBusName else {
            displayOwner = nil
            return false
        }
        let previous = displayOwner
        displayOwner = try? await connection.nameOwner(of: name)
        return previous != nil && previous == displayOwner
    }
}
