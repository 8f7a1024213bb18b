import DBusTestSupport
import Foundation
import NotificationModel
import Synchronization

@testable import NotificationScheduling

/// Zones, dates and a recorder of deliveries for the scheduling tests.
enum SchedulingFixtures {
    static let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
    static let newYork = TimeZoneRules(identifier: "America/New_York")!
    static let tokyo = TimeZoneRules(identifier: "Asia/Tokyo")!

    /// The instant an ISO 8601 text with an explicit offset names: `2025-03-30T03:00:00+02:00` or `…Z`.
    static func instant(_ text: String) -> Date {
        let wallClock = LocalDateTime(parsing: String(text.prefix(19)))!
        let zone = text.dropFirst(19)
        var offset = 0
        if zone != "Z" {
            let sign = zone.first == "-" ? -1 : 1
            let digits = zone.dropFirst().split(separator: ":").map { Int($0)! }
            offset = sign * (digits[0] * 3600 + digits[1] * 60)
        }
        return Date(timeIntervalSince1970: Double(wallClock.secondsSince1970InUTC - offset))
    }

    /// A wall-clock time.
    static func wallClock(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
    ) -> LocalDateTime {
        LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The first `count` fire dates of `trigger` after `start`, each found from the previous one.
    static func occurrences(
        of trigger: NotificationTrigger, in zone: TimeZoneRules, after start: Date, anchor: Date? = nil, count: Int
    ) -> [Date] {
        let evaluator = TriggerEvaluator(timeZone: zone)
        var dates: [Date] = []
        var cursor = start
        while dates.count < count,
            let next = evaluator.nextFireDate(after: cursor, for: trigger, anchor: anchor ?? start)
        {
            dates.append(next)
            cursor = next
        }
        return dates
    }
}

/// Collects what a scheduler delivers, and lets a test wait, bounded, for a number of deliveries.
final class FiringRecorder: Sendable {
    private struct State {
        var firings: [ScheduledFiring<String>] = []
        var waiters: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The closure to pass to the scheduler.
    var fire: Scheduler<String>.Fire {
        { [self] firing in record(firing) }
    }

    /// Everything delivered so far, in order.
    var firings: [ScheduledFiring<String>] { state.withLock { $0.firings } }

    /// The ids delivered so far, in order.
    var ids: [String] { firings.map(\.notification.id) }

    private func record(_ firing: ScheduledFiring<String>) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.firings.append(firing)
            let ready = state.waiters.filter { $0.value.count <= state.firings.count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `count` deliveries have been recorded; fails the wait after `limit`.
    func waitForFirings(_ count: Int, within limit: Duration = .seconds(60)) async throws {
        try await withTimeout(limit, waitingFor: "\(count) deliveries (have \(ids))") { [self] in
            let id = state.withLock { state -> UInt64 in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        if state.firings.count >= count || Task.isCancelled { return true }
                        state.waiters[id] = (count, continuation)
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
            }
        }
    }
}
