import Foundation

/// One line of the results: a measured figure, its ratio to the raw-libdbus floor of the same run, and its target.
struct ResultRow: Sendable {
    enum Unit: String, Sendable {
        case nanoseconds = "ns"
        case perSecond = "per_second"
        case bytes = "bytes"
        case clockTicks = "clock_ticks"
        case count = "count"
    }

    /// A target and whether the figure met it.
    struct Target: Sendable {
        var text: String
        var met: Bool
    }

    var group: String
    var name: String
    var unit: Unit
    /// The median (of samples, then of rounds), or the figure itself where there is one per round.
    var median: Double
    var p99: Double?
    /// `median` over the raw-libdbus floor of the same kind, measured in the same rounds.
    var ratio: Double?
    var target: Target?
    /// What to keep in mind when reading the figure.
    var note: String?

    init(
        _ group: String, _ name: String, unit: Unit, median: Double, p99: Double? = nil, ratio: Double? = nil,
        target: Target? = nil, note: String? = nil
    ) {
        self.group = group
        self.name = name
        self.unit = unit
        self.median = median
        self.p99 = p99
        self.ratio = ratio
        self.target = target
        self.note = note
    }

    init(
        _ group: String, _ name: String, latency: Latency, floor: Latency? = nil, target: Target? = nil,
        note: String? = nil
    ) {
        self.init(
            group, name, unit: .nanoseconds, median: latency.median, p99: latency.p99,
            ratio: floor.map { latency.median / $0.median }, target: target, note: note)
    }

    var json: [String: Any] {
        var object: [String: Any] = ["group": group, "name": name, "unit": unit.rawValue, "median": median]
        if let p99 { object["p99"] = p99 }
        if let ratio { object["ratio"] = ratio }
        if let target {
            object["target"] = target.text
            object["met"] = target.met
        }
        if let note { object["note"] = note }
        return object
    }
}

/// Prints the rows as a table, grouped in the order they came; with `last`, each figure's move since that table.
func printTable(_ rows: [ResultRow], header: String, last: LastTable? = nil) {
    func figure(_ value: Double?, _ unit: ResultRow.Unit) -> String {
        guard let value, value.isFinite else { return "—" }
        switch unit {
        case .nanoseconds:
            if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
            if value >= 1e6 { return String(format: "%.1f ms", value / 1e6) }
            return String(format: "%.1f µs", value / 1e3)
        case .perSecond: return String(format: "%.0f /s", value)
        case .bytes: return String(format: "%.1f MB", value / 1e6)
        case .clockTicks: return String(format: "%.0f ticks", value)
        case .count: return String(format: "%.0f", value)
        }
    }
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let space = String(repeating: " ", count: width - count)
        return left ? text + space : space + text
    }
    print("")
    print(header)
    var group = ""
    for row in rows {
        if row.group != group {
            group = row.group
            print("")
            print(
                pad(group, 46, left: true) + pad("median", 12) + pad("p99", 12) + pad("× raw", 9)
                    + pad("vs last", 15) + "   target")
        }
        let ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? ""
        var target = ""
        if let t = row.target { target = t.text + (t.met ? "  met" : "  MISSED") }
        print(
            pad("  " + row.name, 46, left: true) + pad(figure(row.median, row.unit), 12)
                + pad(row.p99 == nil ? "" : figure(row.p99, row.unit), 12) + pad(ratio, 9)
                + pad(last?.change(of: row) ?? "", 15) + "   " + target)
        if let note = row.note { print("      " + note) }
    }
}

/// Writes the rows and what the machine was doing to `path` as JSON.
func writeJSON(_ rows: [ResultRow], to path: String, settings: [String: Any]) throws {
    var report = settings
    report["rows"] = rows.map(\.json)
    report["load_average"] =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).compactMap { Double($0) } ?? []
    report["processors"] = ProcessInfo.processInfo.activeProcessorCount
    report["finished_at"] = ISO8601DateFormatter().string(from: Date())
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]).write(to: url)
}
