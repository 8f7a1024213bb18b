import FoundationEssentials
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Snoozing: a click on one of the bridge's snooze buttons (the session's ``SessionEvent/snoozed(_:)``) takes the notification off the screen and schedules it
/// again, under the same id and with the same route, to be shown once the interval has passed.
extension DaemonCore {
    /// `content` with the snooze intervals it offers when shown now: its own, else its category's; none for a
    /// notification that repeats (its next firing has its id already). The user's settings may still take them away
    /// (``allowedBySettings(_:category:repeats:)``).
    static func offeringSnooze(
        _ content: NotificationContent, category: NotificationCategory?, repeats: Bool = false
    ) -> NotificationContent {
        var content = content
        content.snoozeIntervals = repeats ? [] : content.snoozeIntervals ?? category?.snoozeIntervals ?? []
        return content
    }

    /// `content` with the snooze intervals it offers (``offeringSnooze(_:category:repeats:)``), none where the user's
    /// settings turn snooze off: for a notification shown again as it was, without the rest of the settings applied
    /// anew.
    func offeringSnoozeAllowed(
        _ content: NotificationContent, category: NotificationCategory?
    ) async -> NotificationContent {
        var content = Self.offeringSnooze(content, category: category)
        if await !settings.record(for: settingsApp(of: content)).effective.allowsSnooze { content.snoozeIntervals = [] }
        return content
    }

    /// Puts a notification off for `interval`: from now it waits in the scheduler (and the store), as if posted with
    /// `in` set to the interval, with its content, hints, route and waiting calls; the server is asked to close it.
    /// Its poster gets no `Closed`. The app hears of it only when the category asks
    /// (``NotificationCategory/reportsSnooze``): a response with action `snooze`, sent where its responses go.
    func snooze(_ answer: SessionSnooze) async {
        let interval = answer.interval
        let id = answer.notification.id
        guard let entry = table[id], !entry.isScheduled else { return }
        switch entry.phase {
        case .posting, .showing, .responding: break
        default: return
        }
        // Waiting again before anything is awaited: the server's close that follows the click finds it off the screen
        // already, so it neither ends it nor tells the poster.
        apply(.snoozed, to: id)
        // Its turn on the session taken now, before anything is awaited: the snooze may end (a short one, or the clock
        // moved on) before scheduling returns, and the notification shown again must not be the one taken off.
        takeOffServer(id)
        let metadata: Logger.Metadata = ["notification.id": "\(id)", "snooze.seconds": "\(interval.seconds)"]
        do {
            _ = try await schedule(
                entry.content, trigger: .timeInterval(seconds: Double(interval.seconds)), id: id, route: entry.route,
                poster: entry.poster, hints: answer.hints, alsoCommitting: [.forgetDelivered(id: id)])
        } catch {
            logger.warning(
                "cannot snooze the notification", metadata: metadata.merging(["error": "\(error.message)"]) { $1 })
            end(id, why: "could not be snoozed (\(error.message))", reason: 3)
            forgetDelivered(id)
            return
        }
        // The route of the shown notification is forgotten in the commit that schedules it: a restart finds one or the
        // other, never both.
        logger.info("snoozed", metadata: metadata)
        guard let category = await category(of: entry.content), category.reportsSnooze, let now = table[id] else {
            return
        }
        var posterIsConnected = true
        if case .poster(let poster) = now.route {
            posterIsConnected = (try? await connection.nameHasOwner(poster)) ?? true
        }
        let reported = NotificationResponse(
            notificationID: id, actionID: NotificationResponse.snoozeActionID, userInfo: entry.content.userInfo)
        route(
            BridgeResponse(reported, foreground: false), id: id, now.route, appName: now.appName,
            posterIsConnected: posterIsConnected)
    }
}
