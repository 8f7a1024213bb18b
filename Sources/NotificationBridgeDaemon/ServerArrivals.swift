/// The notification servers the daemon has seen become ready, in the order of the session's events: what decides
/// whether a scheduled notification whose `Notify` found no server waits for the next server or is shown again at once.
///
/// A firing is stamped (``stamp``) as its `Notify` is sent. When that fails for want of a server, it waits only if no
/// server became ready since the stamp. One that became ready meanwhile (its
/// `SessionEvent.serverReady(owner:info:)` handled between the `Notify` and its failure) found nothing waiting, so
/// the firing is shown again at once instead of waiting for a server that is already there. The arrival and the
/// decision are both taken on the daemon's actor, each without a suspension between reading and writing this value, so
/// no order of the two leaves a firing waiting for the next server.
struct ServerArrivals: Sendable, Equatable {
    /// A point in the sequence of servers that became ready.
    struct Stamp: Sendable, Equatable {
        fileprivate var arrivals: UInt64
    }

    /// What a firing whose `Notify` found no server does.
    enum Decision: Sendable, Equatable {
        /// It waits in `.awaitingServer` for the next server to become ready.
        case awaitServer
        /// A server became ready since it was sent: it is shown again now.
        case showAgain
    }

    /// How many servers became ready.
    private var arrivals: UInt64 = 0

    /// The point a `Notify` sent now is stamped with.
    var stamp: Stamp { Stamp(arrivals: arrivals) }

    /// A server became ready: every firing stamped before now that finds no server is shown again.
    mutating func serverReady() {
        arrivals += 1
    }

    /// What a firing stamped `sent`, whose `Notify` found no server, does.
    func decision(sentAt sent: Stamp) -> Decision {
        arrivals > sent.arrivals ? .showAgain : .awaitServer
    }
}
