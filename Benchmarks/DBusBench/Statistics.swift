import Foundation

/// Nanoseconds on `CLOCK_MONOTONIC`: the clock the C baseline reads too, so timestamps taken in different processes
/// on this machine compare directly.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The median and the 99th percentile of one run's samples.
struct Latency: Sendable {
    var median: Double
    var p99: Double

    /// Summarises `samples` (any order): the median (the mean of the two middle samples for an even count) and the
    /// nearest-rank 99th percentile, the same definitions the C baseline uses.
    init(samples: [Double]) {
        precondition(!samples.isEmpty, "no samples to summarise")
        let sorted = samples.sorted()
        let count = sorted.count
        median = count % 2 == 0 ? (sorted[count / 2 - 1] + sorted[count / 2]) / 2 : sorted[count / 2]
        p99 = sorted[max(0, Int((0.99 * Double(count)).rounded(.up)) - 1)]
    }

    init(median: Double, p99: Double) {
        self.median = median
        self.p99 = p99
    }

    /// Runs `operation` `warmUp` times unmeasured, then `count` times, each timed alone.
    static func timing(
        _ count: Int, warmUp: Int, _ operation: () async throws -> Void
    ) async rethrows -> Latency {
        for _ in 0..<warmUp { try await operation() }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            try await operation()
            samples.append(Double(monotonicNanoseconds() - start))
        }
        return Latency(samples: samples)
    }

    /// The median of each figure over rounds: one noisy round moves neither.
    static func medianOfRounds(_ rounds: [Latency]) -> Latency {
        Latency(median: medianOf(rounds.map(\.median)), p99: medianOf(rounds.map(\.p99)))
    }
}

func medianOf(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let count = sorted.count
    return count % 2 == 0 ? (sorted[count / 2 - 1] + sorted[count / 2]) / 2 : sorted[count / 2]
}

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}
