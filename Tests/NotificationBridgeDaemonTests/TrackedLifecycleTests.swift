import Foundation
import NotificationBridge
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationBridgeDaemon

/// The whole lifecycle of a tracked notification, with no bus: every phase against every event, and the events the
/// daemon itself raises (a firing, a hold, a snooze, an end), through the one function that changes a phase.
@Suite("Tracked notification lifecycle")
struct TrackedLifecycleTests {
    /// A firing of a one-shot notification, as the scheduler hands it over.
    static let firing: ScheduledFiring<ScheduledPost> = {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let trigger = NotificationTrigger.date(.instant(secondsSince1970: now.timeIntervalSince1970), repeat: nil)
        let post = ScheduledPost(
            content: NotificationContent(title: "Tea", appName: "Kettle"), route: .poster(":1.7"), poster: ":1.7",
            hints: [:], trigger: trigger)
        let notification = ScheduledNotification(
            id: "n", appName: "Kettle", trigger: trigger, payload: post, scheduledAt: now, timeZoneIdentifier: "UTC")
        return ScheduledFiring(notification: notification, occurrence: now, firedAt: now, nextFireDate: nil)
    }()

    /// Every phase, by name.
    enum Phase: String, CaseIterable, Sendable {
        case pending, awaitingServer, handedToApp, held, posting, showing, stacked, responding, ended

        init(_ phase: TrackedNotification.Phase) {
            switch phase {
            case .pending: self = .pending
            case .awaitingServer: self = .awaitingServer
            case .handedToApp: self = .handedToApp
            case .held: self = .held
            case .posting: self = .posting
            case .showing: self = .showing
            case .stacked: self = .stacked
            case .responding: self = .responding
            case .ended: self = .ended
            }
        }

        /// A notification in this phase, brought there the way the daemon brings one: a start, then events.
        var entry: TrackedNotification {
            let (start, events): (TrackedTransition.Start, [TrackedTransition.Event]) =
                switch self {
                case .pending: (.scheduled, [])
                case .awaitingServer: (.scheduled, [.awaitingServer(TrackedLifecycleTests.firing)])
                case .handedToApp: (.scheduled, [.handedToApp(TrackedLifecycleTests.firing.notification.payload)])
                case .held: (.posted, [.held(TrackedLifecycleTests.firing, order: 4)])
                case .posting: (.posted, [])
                case .showing: (.posted, [.shown])
                case .stacked: (.restored(stacked: true), [])
                case .responding: (.restored(stacked: false), [.closed(.closedByCall, acted: true, dismissed: false)])
                case .ended: (.scheduled, [.withdrawn])
                }
            var entry = TrackedNotification(
                start, appName: "Kettle", poster: ":1.7", route: .poster(":1.7"),
                content: NotificationContent(title: "Tea"), reportsDismissal: false)
            for event in events { _ = entry.handle(event, id: "n") }
            return entry
        }

        /// Whether the user has seen it: on the server, behind the one shown, or closed with a response to come.
        var isDelivered: Bool { [.posting, .showing, .stacked, .responding].contains(self) }
    }

    /// Every event, by name, with a representative of what it carries.
    enum Event: String, CaseIterable, Sendable {
        case scheduled, handedToApp, sent, awaitingServer, held, snoozed, ended
        case closed, closedAfterAction, dismissed, promptEnded, shown, notShown, notShownReplacing, responded
        case withdrawn, handedOver, stacked, broughtBack, threadClosed

        var event: TrackedTransition.Event {
            switch self {
            case .scheduled: .scheduled
            case .handedToApp: .handedToApp(TrackedLifecycleTests.firing.notification.payload)
            case .sent: .sent
            case .awaitingServer: .awaitingServer(TrackedLifecycleTests.firing)
            case .held: .held(TrackedLifecycleTests.firing, order: 9)
            case .snoozed: .snoozed
            case .ended: .ended("could not be saved")
            case .closed: .closed(.expired, acted: false, dismissed: false)
            case .closedAfterAction: .closed(.closedByCall, acted: true, dismissed: false)
            case .dismissed: .closed(.dismissed, acted: false, dismissed: true)
            case .promptEnded: .promptEnded
            case .shown: .shown
            case .notShown: .notShown(message: "refused", replacedOneOnServer: false)
            case .notShownReplacing: .notShown(message: "refused", replacedOneOnServer: true)
            case .responded: .responded
            case .withdrawn: .withdrawn
            case .handedOver: .handedOver
            case .stacked: .stacked
            case .broughtBack: .broughtBack
            case .threadClosed: .threadClosed(.dismissed, dismissed: true)
            }
        }

        /// Raised by the daemon itself as it schedules, fires, holds, snoozes or ends a notification; the others come
        /// from the server session or from a client's call.
        var isTheDaemons: Bool {
            [.scheduled, .handedToApp, .sent, .awaitingServer, .held, .snoozed, .ended].contains(self)
        }
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        var phase: Phase
        var event: Event
        var testDescription: String { "\(phase) on \(event)" }
    }

    static let pairs = Phase.allCases.flatMap { phase in Event.allCases.map { Pair(phase: phase, event: $0) } }

    /// The notification in `phase`, moved on by `event`: its next phase and the effects.
    static func step(_ phase: Phase, _ event: Event, answered: Bool = false) -> (Phase, [TrackedTransition.Effect]) {
        var entry = phase.entry
        if answered { _ = entry.handle(.responded, id: "n") }
        let effects = entry.handle(event.event, id: "n")
        return (Phase(entry.phase), effects)
    }

    @Test("every (phase, event) pair keeps the lifecycle's promises", arguments: pairs)
    func everyPair(_ pair: Pair) {
        let (next, effects) = Self.step(pair.phase, pair.event)
        #expect(Set(effects.map { "\($0)" }).count == effects.count, "no effect twice")
        // The server is asked to close only what it shows or is about to.
        if effects.contains(.takeOffServer) { #expect([.posting, .showing].contains(pair.phase)) }
        // Only one the user has seen tells its poster it closed, or goes into the history.
        if effects.contains(where: { if case .emitClosed = $0 { true } else { false } }) {
            #expect(pair.phase.isDelivered)
        }
        if effects.contains(where: { if case .recordHistory = $0 { true } else { false } }) {
            #expect(pair.phase.isDelivered)
        }
        // The disk keeps a route only for one that is delivered after the event.
        if effects.contains(.keepStacked) { #expect(next == .stacked) }
        if effects.contains(.keepDelivered) { #expect(next.isDelivered) }
        // What the server or a client reports never brings back one that ended, nor does anything with it.
        if pair.phase == .ended, !pair.event.isTheDaemons {
            #expect(next == .ended)
            #expect(effects.isEmpty)
        }
        // One that ends by the server's or a client's doing after the user saw it is always reported to its poster.
        if pair.phase.isDelivered, pair.phase != .posting, next == .ended, !pair.event.isTheDaemons {
            #expect(effects.contains { if case .emitClosed = $0 { true } else { false } })
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var phase: Phase
        var event: Event
        var next: Phase
        var testDescription: String { "\(phase) on \(event) → \(next)" }
    }

    /// The daemon's own events: where each moves a notification (none has effects: the daemon raised it, and performs
    /// what goes with it itself).
    static let daemonRows: [Row] =
        Phase.allCases.map { Row(phase: $0, event: .scheduled, next: $0 == .ended ? .pending : $0) }
        + Phase.allCases.flatMap { phase in
            [
                Row(phase: phase, event: .sent, next: .posting),
                Row(phase: phase, event: .handedToApp, next: .handedToApp),
                Row(phase: phase, event: .awaitingServer, next: .awaitingServer),
                Row(phase: phase, event: .held, next: .held),
                Row(phase: phase, event: .snoozed, next: .pending),
                Row(phase: phase, event: .ended, next: .ended),
            ]
        }

    @Test("the daemon's own events move a notification as the table says, with no effect", arguments: daemonRows)
    func daemonEvent(_ row: Row) {
        let (next, effects) = Self.step(row.phase, row.event)
        #expect(next == row.next)
        #expect(effects.isEmpty)
    }

    @Test("a notification sent again, held, snoozed or ended is no longer answered: the next close ends it afresh")
    func answerClearedByTheDaemonsEvents() {
        for event in [Event.sent, .held, .snoozed, .ended] {
            var entry = Phase.showing.entry
            _ = entry.handle(.responded, id: "n")
            #expect(entry.isAnswered)
            _ = entry.handle(event.event, id: "n")
            #expect(!entry.isAnswered, "\(event) clears the answer")
        }
    }

    @Test("every phase is reached from a start through events, as the daemon reaches it", arguments: Phase.allCases)
    func phaseReached(_ phase: Phase) {
        #expect(Phase(phase.entry.phase) == phase)
    }

    struct StartRow: Sendable, CustomTestStringConvertible {
        var start: TrackedTransition.Start
        var phase: Phase
        var testDescription: String { "\(start) → \(phase)" }
    }

    /// Where each way of coming to be tracked starts a notification.
    static let startRows: [StartRow] = [
        StartRow(start: .posted, phase: .posting),
        StartRow(start: .scheduled, phase: .pending),
        StartRow(start: .restored(stacked: false), phase: .showing),
        StartRow(start: .restored(stacked: true), phase: .stacked),
    ]

    @Test("a notification starts in the phase its start says, unanswered", arguments: startRows)
    func start(_ row: StartRow) {
        let entry = TrackedNotification(
            row.start, appName: "Kettle", poster: ":1.7", route: .poster(":1.7"),
            content: NotificationContent(title: "Tea"), reportsDismissal: true)
        #expect(Phase(entry.phase) == row.phase)
        #expect(!entry.isAnswered)
        #expect(entry.respondedAction == nil)
        // A close the user did not act on ends a new one afresh, and reports a dismissal where its category asks.
        var closed = entry
        let effects = closed.handle(.closed(.dismissed, acted: false, dismissed: true), id: "n")
        if [.posting, .showing].contains(row.phase) {
            #expect(Phase(closed.phase) == .responding, "a reported dismissal waits for its response")
            #expect(effects == [.forgetDelivered])
        } else {
            #expect(Phase(closed.phase) == row.phase)
        }
    }
}
