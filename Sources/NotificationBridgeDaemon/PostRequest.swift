import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling

/// A `Post(a{sv} notification)` call, read and checked (``NotificationPost`` reads the keys, ``PostKeys`` lists
/// them), with what only the daemon can settle: the default app name, the `exec` program on the daemon's `PATH`,
/// and the trigger, counted from now in the user's zone.
package struct PostRequest: Sendable {
    package var content: NotificationContent
    /// The app name the notification itself gave, before the default was filled in.
    var givenAppName: String?
    /// The route chosen by the notification itself, or `nil` for the posting connection.
    var route: ResponseRoute?
    var replaces: String?
    /// An id of the caller's choosing: shown under it, or replacing the notification that has it.
    var fixedID: String?
    /// When to show it; `nil` for now.
    var trigger: NotificationTrigger?
    /// Server hints of the caller's own, sent after the bridge's.
    var hints: [String: DBusValue] = [:]
    /// What happens to it while the desktop's do-not-disturb holds it back; `nil` for the default, hold.
    var ifDoNotDisturb: DoNotDisturbChoice?

    /// Reads a notification dictionary.
    ///
    /// - Parameter defaultAppName: the app name of a notification that names none.
    /// - Parameter now: the time `in` counts from when it is combined with `repeat`.
    /// - Throws: `InvalidArgument` for anything that is wrong.
    package init(_ value: DBusValue, defaultAppName: String, now: Date = Date()) throws(DBusFailure) {
        let post = try NotificationPost(decoding: value, currentZoneName: SystemTimeZone.read().identifier)
        content = post.content
        givenAppName = content.appName
        if content.appName == nil { content.appName = defaultAppName }
        switch post.route {
        case .command(let argv)?:
            try CommandLauncher.check(argv)
            route = .command(argv)
        case .application(let action)?:
            route = .application(desktopEntry: content.desktopEntry ?? "", action: action)
        case nil:
            route = nil
        }
        replaces = post.replaces
        fixedID = post.fixedID
        hints = post.hints
        ifDoNotDisturb = post.ifDoNotDisturb
        trigger = try post.schedule.map { schedule throws(DBusFailure) in try Self.trigger(schedule, now: now) }
    }

    /// The trigger a schedule describes, with `in` counted from `now` and instants given for the user's zone turned
    /// into its wall-clock times.
    private static func trigger(_ schedule: PostSchedule, now: Date) throws(DBusFailure) -> NotificationTrigger {
        switch schedule {
        case .date(let fireDate, let interval):
            return .date(fireDate, repeat: interval.map(RepeatRule.interval))
        case .delay(let seconds, nil):
            return .timeInterval(seconds: seconds)
        case .delay(let seconds, let interval?):
            return .date(.instant(secondsSince1970: now.timeIntervalSince1970 + seconds), repeat: .interval(interval))
        case .calendar(let match, let repeats):
            return .calendar(match, repeats: repeats)
        case .wallClockOfInstant(let seconds, let interval):
            let time = TriggerEvaluator().localDateTime(for: Date(timeIntervalSince1970: seconds))
            let trigger = NotificationTrigger.date(.wallClock(time), repeat: interval.map(RepeatRule.interval))
            do throws(TriggerValidationError) {
                try trigger.validate()
            } catch {
                throw KeyPlace(place: "notification", key: PostKeys.fireDate.name).invalid(
                    "is not a valid time: \(error)")
            }
            return trigger
        }
    }

    /// Whether `name` is valid as a `GAction` name: letters, digits, `-` and `.`, at most 255 bytes.
    static func isActionName(_ name: String) -> Bool { NotificationPost.isActionName(name) }
}
