import Foundation

/// The thresholds of the gates, as data: `Benchmarks/gates.tsv`, one line per path and metric, tab-separated:
/// path, metric (`instructions` or `allocations`, per operation), threshold, the figure measured when the threshold
/// was set, and a note. Lines starting with `#` are comments.
struct GateTable {
    struct Gate: Sendable {
        var path: String
        var metric: Metric
        var threshold: Double
        var measured: Double
        var note: String
    }

    enum Metric: String, Sendable, CaseIterable {
        case instructions
        case allocations

        func value(of counts: Counts) -> Double {
            switch self {
            case .instructions: counts.instructions
            case .allocations: counts.allocations
            }
        }
    }

    var gates: [Gate]

    init(contentsOf path: String) throws {
        try self.init(text: try String(contentsOfFile: path, encoding: .utf8), path: path)
    }

    /// Reads the table from its text; `path` names it in errors.
    init(text: String, path: String) throws {
        gates = try text.split(separator: "\n").enumerated().compactMap { number, line in
            if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let metric = Metric(rawValue: fields[1]), let threshold = Double(fields[2]),
                let measured = Double(fields[3])
            else {
                throw GateError(
                    "\(path):\(number + 1): expected path, metric (instructions or allocations), threshold, "
                        + "measured and a note, separated by tabs")
            }
            return Gate(
                path: fields[0], metric: metric, threshold: threshold, measured: measured,
                note: fields.count > 4 ? fields[4] : "")
        }
    }

    /// The paths the table names, in its order.
    var paths: [String] {
        var seen: Set<String> = []
        return gates.map(\.path).filter { seen.insert($0).inserted }
    }
}

/// What each path of the table is, as the report names it.
let pathNames: [String: String] = [
    "daemon-post": "daemon Post, answered once the server has it (per Post)",
    "daemon-respond": "daemon Post, then the server's click reaching the client as Responded (per pair)",
    "library-post": "library center.post (per post)",
    "library-dispatch": "library center.post, then the server's click running the handler (per pair)",
    "daemon-list": "daemon ListPending of 10,000 pending (per listing)",
    "daemon-start": "daemon start with 10,000 pending, to its exit (whole process)",
    "cli-send": "notification-bridge send (whole process)",
]

extension GateTable.Gate {
    /// The line that says this gate failed for `figure`, or `nil` when the figure is within the threshold.
    func failure(_ figure: Double) -> String? {
        guard figure > threshold else { return nil }
        return "\(path) \(metric.rawValue) per operation: \(formatted(figure)) is past the threshold "
            + "\(formatted(threshold)) (\(pathNames[path] ?? path))"
    }
}

/// The threshold a new measure suggests (rounded up): 3% above for instructions; for allocations 5% above on a path
/// counted per operation, whose allocations move with the timing between processes, 2% on a listing or a whole
/// process, and never fewer than two.
func proposedThreshold(_ metric: GateTable.Metric, measured: Double, perOperation: Bool) -> Double {
    switch metric {
    case .instructions: (measured * 1.03).rounded(.up)
    case .allocations: max(measured + 2, measured * (perOperation ? 1.05 : 1.02)).rounded(.up)
    }
}

/// The paths whose figure is the difference of runs of N and 2N operations of one kind.
let perOperationPaths: Set<String> = ["daemon-post", "daemon-respond", "library-post", "library-dispatch"]

/// Formats a count with thousands separators and at most one decimal.
func formatted(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    let whole = Int(rounded.rounded(.towardZero))
    let digits = String(abs(whole))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
        grouped.append(digit)
    }
    let tenths = Int((abs(rounded) * 10).rounded()) % 10
    return (rounded < 0 ? "-" : "") + grouped + (tenths == 0 ? "" : ".\(tenths)")
}
