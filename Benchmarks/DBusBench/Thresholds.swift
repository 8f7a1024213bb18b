/// A target of the bench: a figure against a floor measured in the same run, or against a fixed budget where there is
/// no floor to measure. The bench's targets are the table ``Thresholds``: changing a target is changing one line there.
struct Threshold: Sendable {
    enum Bound: Sendable {
        /// At most this multiple of the floor (a latency).
        case atMostTimesFloor(Double)
        /// At least this multiple of the floor (a rate).
        case atLeastTimesFloor(Double)
        /// At most this much, in the row's unit (nanoseconds or bytes).
        case atMost(Double)
    }

    var bound: Bound
    /// What the figure is measured against, as the report names it: `raw`, `serve-post`, `one client`; empty for a
    /// budget.
    var floor: String = ""

    /// Judges `figure` against the floor measured in the same run, and says the ratio in the text: a missed target is
    /// a number.
    func judge(_ figure: Double, floor measured: Double) -> ResultRow.Target {
        let ratio = figure / measured
        switch bound {
        case .atMostTimesFloor(let most):
            return .init(text: Self.ratioText("≤", most, floor, ratio), met: ratio <= most)
        case .atLeastTimesFloor(let least):
            return .init(text: Self.ratioText("≥", least, floor, ratio), met: ratio >= least)
        case .atMost:
            preconditionFailure("a budget has no floor: judge(_:) it alone")
        }
    }

    /// Judges `figure` against a fixed budget; `text` is the budget as the report shows it (`≤ 20 MB`).
    func judge(_ figure: Double, text: String) -> ResultRow.Target {
        guard case .atMost(let most) = bound else { preconditionFailure("a ratio needs its floor") }
        return .init(text: text, met: figure <= most)
    }

    private static func ratioText(_ relation: String, _ bound: Double, _ floor: String, _ ratio: Double) -> String {
        let format = { (value: Double) in String(Int((value * 100).rounded())).leftPadded() }
        return "\(relation) \(format(bound))× \(floor) (\(format(ratio))×)"
    }
}

extension String {
    /// Two decimals from hundredths: `130` reads `1.30`.
    fileprivate func leftPadded() -> String {
        let digits = count < 3 ? String(repeating: "0", count: 3 - count) + self : self
        return digits.dropLast(2) + "." + digits.suffix(2)
    }
}

/// Every target of `make bench`, as data. A ratio is against the floor named beside it, measured in the same run; see
/// docs/performance.md for what each floor is.
enum Thresholds {
    /// A DBusCore call, from any task or on the connection's executor, against raw libdbus.
    static let dbusCoreCall = Threshold(bound: .atMostTimesFloor(1.15), floor: "raw")
    /// Signals received and emitted by DBusCore, against raw libdbus's rate.
    static let dbusCoreSignals = Threshold(bound: .atLeastTimesFloor(0.8), floor: "raw")
    /// `center.post`, against the async-call floor (the same Notify awaited from a task).
    static let centerPost = Threshold(bound: .atMostTimesFloor(1.10), floor: "the async-call floor")
    /// The daemon's `Post`, against `dbus-raw-baseline serve-post` (libdbus, SQLite, the same Notify and row).
    static let daemonPost = Threshold(bound: .atMostTimesFloor(1.30), floor: "serve-post")
    /// A response reaching a handler, against the async-handler floor (the signal read and a task started).
    static let dispatch = Threshold(bound: .atMostTimesFloor(1.15), floor: "the async-handler floor")
    /// `notification-bridge send` as a whole process, against `notify-send`.
    static let send = Threshold(bound: .atMostTimesFloor(0.6), floor: "notify-send")
    /// Posts per second from fifty clients at once, against one client.
    static let throughput = Threshold(bound: .atLeastTimesFloor(3), floor: "one client")
    /// Start → every pending notification listed, against `dbus-raw-baseline serve-listing` on the same rows.
    static let startToListed = Threshold(bound: .atMostTimesFloor(1.40), floor: "serve-listing")
    /// The p99 of `ListPending` while a slow server holds ten `Post`s, in nanoseconds.
    static let listWhileServerIsSlow = Threshold(bound: .atMost(20e6))
    /// The p99 of how late scheduled notifications fire, in nanoseconds.
    static let fireLateness = Threshold(bound: .atMost(10e6))
    /// The daemon's resident memory, idle.
    static let idleMemory = Threshold(bound: .atMost(10e6))
    /// Growth of resident memory after churn.
    static let churnGrowth = Threshold(bound: .atMost(1e6))
    /// Resident memory with 10,000 pending, and after a restart with them.
    static let pendingMemory = Threshold(bound: .atMost(20e6))
    /// A listing, a withdrawal or a restart touching many notifications, against linear cost: the same per
    /// notification as at the smallest size measured.
    static let linearScale = Threshold(bound: .atMostTimesFloor(2), floor: "linear")
    /// `WithdrawAll` of 100,000 showing, until its answer, in nanoseconds.
    static let withdrawAll = Threshold(bound: .atMost(2e9))
    /// Resident memory after a large withdrawal, against the idle figure before it.
    static let memoryAfterWithdrawal = Threshold(bound: .atMostTimesFloor(1.5), floor: "idle")
    /// The programs, stripped, and the installed package.
    static let size = Threshold(bound: .atMost(10e6))
}
