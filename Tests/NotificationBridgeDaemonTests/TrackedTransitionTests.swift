import NotificationBridge
import Testing

@testable import NotificationBridgeDaemon

/// The transitions of a tracked notification on what the server session reports, as a table: no bus, no daemon.
@Suite("Tracked notification transitions")
struct TrackedTransitionTests {
    /// A phase by name, for the table (the phases that carry a scheduled firing do not appear in it).
    enum PhaseName: String, Sendable, CaseIterable {
        case pending, posting, showing, stacked, responding, ended

        var phase: TrackedNotification.Phase {
            switch self {
            case .pending: .pending
            case .posting: .posting
            case .showing: .showing
            case .stacked: .stacked
            case .responding: .responding("was closed", closeReason: 3)
            case .ended: .ended("was withdrawn")
            }
        }

        init(_ phase: TrackedNotification.Phase) {
            switch phase {
            case .pending, .awaitingServer, .handedToApp, .held: self = .pending
            case .posting: self = .posting
            case .showing: self = .showing
            case .stacked: self = .stacked
            case .responding: self = .responding
            case .ended: self = .ended
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var phase: PhaseName
        var isAnswered = false
        var reportsDismissal = false
        var event: TrackedTransition.Event
        var next: PhaseName
        var effects: [TrackedTransition.Effect]
        var testDescription: String { "\(phase) on \(event) → \(next) \(effects)" }
    }

    static let rows: [Row] = [
        // A close of a notification on the server ends it, unless a response is still to come.
        Row(
            phase: .showing, event: .closed(.expired, acted: false, dismissed: false), next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 1), .end(why: "expired", waitsMessage: nil),
                .recordHistory(.expired),
            ]),
        Row(
            phase: .showing, event: .closed(.dismissed, acted: false, dismissed: true), next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 2), .end(why: "was dismissed by the user", waitsMessage: nil),
                .recordHistory(.dismissed),
            ]),
        Row(
            phase: .showing, reportsDismissal: true, event: .closed(.dismissed, acted: false, dismissed: true),
            next: .responding, effects: [.forgetDelivered]),
        Row(
            phase: .showing, event: .closed(.dismissed, acted: true, dismissed: false), next: .responding,
            effects: [.forgetDelivered]),
        Row(
            phase: .showing, isAnswered: true, event: .closed(.dismissed, acted: true, dismissed: false),
            next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 3), .end(why: "was closed", waitsMessage: nil),
                .recordHistory(.closed),
            ]
        ),
        Row(
            phase: .posting, event: .closed(.undefined, acted: false, dismissed: false), next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 4),
                .end(why: "was closed by the notification server", waitsMessage: nil), .recordHistory(.closed),
            ]),
        // A close of a notification that is not on the server changes nothing.
        Row(phase: .ended, event: .closed(.expired, acted: false, dismissed: false), next: .ended, effects: []),
        Row(phase: .pending, event: .closed(.expired, acted: false, dismissed: false), next: .pending, effects: []),
        Row(
            phase: .responding, event: .closed(.expired, acted: false, dismissed: false), next: .responding, effects: []
        ),
        // A prompt that ended without text ends a notification that closed meanwhile; otherwise its close will.
        Row(
            phase: .responding, event: .promptEnded, next: .ended,
            effects: [
                .emitClosed(reason: 3),
                .end(
                    why: "was closed",
                    waitsMessage: "notification 'n' was closed; the prompt for text ended without any"),
                .recordHistory(.closed),
            ]
        ),
        Row(phase: .showing, event: .promptEnded, next: .showing, effects: []),
        Row(phase: .ended, event: .promptEnded, next: .ended, effects: []),
        // The server's answer to Notify: it shows, and its route is kept on disk.
        Row(phase: .posting, event: .shown, next: .showing, effects: [.keepDelivered]),
        // Withdrawn while its Notify was out: it stays ended, and nothing of it is kept.
        Row(phase: .ended, event: .shown, next: .ended, effects: []),
        // Closed by the server before the Notify was answered, with a response to come: the route is kept for it.
        Row(phase: .responding, event: .shown, next: .responding, effects: [.keepDelivered]),
        // A Notify that failed ends the notification, and its waiting calls fail; nothing is sent to the poster, whose
        // Post fails instead.
        Row(
            phase: .posting, event: .notShown(message: "no server", replacedOneOnServer: false), next: .ended,
            effects: [.end(why: "could not be shown (no server)", waitsMessage: nil)]),
        // A failed replacement leaves the notification it replaced on the screen, as it was.
        Row(
            phase: .posting, event: .notShown(message: "refused", replacedOneOnServer: true), next: .posting,
            effects: [.restoreReplaced]),
        // Withdrawn or closed while the Notify was out: the failure changes nothing more.
        Row(
            phase: .ended, event: .notShown(message: "timed out", replacedOneOnServer: false), next: .ended,
            effects: []),
        // A response ends a notification that the server closed meanwhile, with the Closed held for it (sent after
        // Responded); otherwise it marks it answered.
        Row(
            phase: .responding, event: .responded, next: .ended,
            effects: [.emitClosed(reason: 3), .recordHistory(.responded)]),
        Row(phase: .showing, event: .responded, next: .showing, effects: []),
        // Withdrawn while it shows, or while its Notify is out: it ends, its waiting calls fail, the poster gets
        // Closed(3), its route is forgotten and the server is asked to close it (once the server has given it an id).
        Row(
            phase: .showing, event: .withdrawn, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded"),
                .emitClosed(reason: 3), .forgetDelivered, .takeOffServer, .recordHistory(.withdrawn),
            ]),
        Row(
            phase: .posting, event: .withdrawn, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded"),
                .emitClosed(reason: 3), .forgetDelivered, .takeOffServer, .recordHistory(.withdrawn),
            ]),
        // Withdrawn while its response is on its way: it ends, with the Closed held for the response and nothing to
        // take off the server. Before it showed: no Closed either.
        Row(
            phase: .responding, event: .withdrawn, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded"),
                .emitClosed(reason: 3), .recordHistory(.withdrawn),
            ]),
        Row(
            phase: .pending, event: .withdrawn, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded")
            ]),
        // Withdrawing one that ended does nothing.
        Row(phase: .ended, event: .withdrawn, next: .ended, effects: []),
        // Threads: a newer notification of its thread takes its place on the server; it waits behind it, listed, and
        // kept on disk as waiting there, so that a restart of the daemon lists it and can bring it back.
        Row(phase: .showing, event: .stacked, next: .stacked, effects: [.keepStacked]),
        Row(phase: .posting, event: .stacked, next: .stacked, effects: [.keepStacked]),
        Row(phase: .ended, event: .stacked, next: .ended, effects: []),
        // Its Notify answered after a newer one took its place: the newer one's route is the one kept.
        Row(phase: .stacked, event: .shown, next: .stacked, effects: []),
        // A close from the server names the one shown, never one waiting behind it.
        Row(phase: .stacked, event: .closed(.expired, acted: false, dismissed: false), next: .stacked, effects: []),
        // Withdrawn while it waits: it ends, its poster gets Closed(3), and it leaves the disk; nothing is on the
        // server to take off.
        Row(
            phase: .stacked, event: .withdrawn, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded"),
                .emitClosed(reason: 3), .forgetDelivered, .recordHistory(.withdrawn),
            ]),
        // The newest withdrawn while the one before comes back in its place: it ends, but stays on the server.
        Row(
            phase: .showing, event: .handedOver, next: .ended,
            effects: [
                .end(why: "was withdrawn", waitsMessage: "notification 'n' was withdrawn before the user responded"),
                .emitClosed(reason: 3), .forgetDelivered, .recordHistory(.withdrawn),
            ]),
        // The one before comes back: its Notify goes out again.
        Row(phase: .stacked, event: .broughtBack, next: .posting, effects: []),
        Row(phase: .ended, event: .broughtBack, next: .ended, effects: []),
        // The newer one that was to take its place could not be shown: it shows still, kept on disk as shown again.
        Row(phase: .stacked, event: .keptOnServer, next: .showing, effects: [.keepDelivered]),
        // Brought back or ended meanwhile: it has moved on already.
        Row(phase: .posting, event: .keptOnServer, next: .posting, effects: []),
        Row(phase: .ended, event: .keptOnServer, next: .ended, effects: []),
        // The one shown closed: each one waiting behind it ends with the same reason, and leaves the disk.
        Row(
            phase: .stacked, event: .threadClosed(.dismissed, dismissed: true), next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 2), .end(why: "was dismissed by the user", waitsMessage: nil),
                .recordHistory(.dismissed),
            ]),
        Row(
            phase: .stacked, event: .threadClosed(.expired, dismissed: false), next: .ended,
            effects: [
                .forgetDelivered, .emitClosed(reason: 1), .end(why: "expired", waitsMessage: nil),
                .recordHistory(.expired),
            ]),
        Row(phase: .showing, event: .threadClosed(.expired, dismissed: false), next: .showing, effects: []),
    ]

    @Test("each phase moves on as the table says", arguments: rows)
    func transition(_ row: Row) {
        let state = TrackedTransition.State(
            phase: row.phase.phase, isAnswered: row.isAnswered, reportsDismissal: row.reportsDismissal)
        let (next, effects) = TrackedTransition.next(state, on: row.event, id: "n")
        #expect(PhaseName(next.phase) == row.next)
        #expect(effects == row.effects)
    }

    @Test("a prompt that ends while the notification shows marks it answered, so that its close ends it")
    func promptEndedThenClosed() {
        let showing = TrackedTransition.State(phase: .showing, isAnswered: false, reportsDismissal: false)
        let (answered, _) = TrackedTransition.next(showing, on: .promptEnded, id: "n")
        #expect(answered.isAnswered)
        let (closed, effects) = TrackedTransition.next(
            answered, on: .closed(.dismissed, acted: true, dismissed: false), id: "n")
        #expect(PhaseName(closed.phase) == .ended)
        #expect(effects.contains(.end(why: "was closed", waitsMessage: nil)))
    }

    @Test("a response while the notification shows marks it answered, so that its close ends it")
    func respondedThenClosed() {
        let showing = TrackedTransition.State(phase: .showing, isAnswered: false, reportsDismissal: false)
        let (answered, effects) = TrackedTransition.next(showing, on: .responded, id: "n")
        #expect(answered.isAnswered)
        #expect(effects.isEmpty)
        let (closed, closing) = TrackedTransition.next(
            answered, on: .closed(.dismissed, acted: true, dismissed: false), id: "n")
        #expect(PhaseName(closed.phase) == .ended)
        #expect(closing.contains(.end(why: "was closed", waitsMessage: nil)))
    }

    @Test("a response after the server closed the notification ends it with the close's reason")
    func respondedAfterClose() {
        let responding = TrackedTransition.State(
            phase: .responding("was dismissed by the user", closeReason: 2), isAnswered: false, reportsDismissal: true)
        let (next, _) = TrackedTransition.next(responding, on: .responded, id: "n")
        guard case .ended(let why) = next.phase else {
            Issue.record("expected the notification to end, got \(next.phase)")
            return
        }
        #expect(why == "was dismissed by the user")
    }

    @Test("a notification answered before it closed is kept in the history as answered, with its action")
    func answeredThenClosedIsResponded() {
        let answered = TrackedTransition.State(
            phase: .showing, isAnswered: true, reportsDismissal: false, respondedAction: "archive")
        let (_, effects) = TrackedTransition.next(
            answered, on: .closed(.dismissed, acted: true, dismissed: false), id: "n")
        #expect(effects.contains(.recordHistory(.responded)))
        let dismissal = TrackedTransition.State(
            phase: .responding("was dismissed by the user", closeReason: 2), isAnswered: false, reportsDismissal: true,
            respondedAction: "dismiss")
        #expect(
            TrackedTransition.next(dismissal, on: .responded, id: "n").1 == [
                .emitClosed(reason: 2), .recordHistory(.dismissed),
            ])
    }
}
