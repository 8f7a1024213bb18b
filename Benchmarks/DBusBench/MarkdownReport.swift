import Foundation

/// Writes the rows as a Markdown table to `path`: the file the documentation links as the latest results. It is
/// written whole by each run, never edited by hand, and says how it was made; with `last`, the column "vs last" says
/// how each figure moved since that table.
func writeMarkdown(
    _ rows: [ResultRow], to path: String, quick: Bool, rounds: Int, load: String, last: LastTable? = nil
) throws {
    func figure(_ value: Double?, _ unit: ResultRow.Unit) -> String {
        guard let value, value.isFinite else { return "" }
        switch unit {
        case .nanoseconds:
            if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
            if value >= 1e6 { return String(format: "%.1f ms", value / 1e6) }
            return String(format: "%.0f µs", value / 1e3)
        case .perSecond: return String(format: "%.0f /s", value)
        case .bytes: return String(format: "%.1f MB", value / 1e6)
        case .clockTicks: return String(format: "%.0f ticks", value)
        case .count: return String(format: "%.0f", value)
        }
    }
    /// A table cell: a `|` would end it early.
    func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    let date = ISO8601DateFormatter().string(from: Date())
    var lines = [
        "<!-- Written by `make bench` (dbus-bench --markdown); a new run replaces this file. Do not edit by hand. -->",
        "",
        "# Benchmark results",
        "",
        "Written \(date) by \(quick ? "a quick run (`QUICK=1`: short, for a sanity check only)" : "a full run"), "
            + "\(rounds) rounds, median of rounds; \(ProcessInfo.processInfo.activeProcessorCount) processors, "
            + "load \(load). How to read it: [performance.md](performance.md).",
    ]
    if let last {
        lines += [
            "",
            "\"vs last\" is the change since the table written \(last.written), ▲ up or ▼ down; \"worse\" marks a time "
                + "or a size that grew, or a rate that fell, by more than 5%.",
        ]
    }
    var group = ""
    for row in rows {
        if row.group != group {
            group = row.group
            lines += [
                "", "## \(cell(group))", "", "| path | median | p99 | × raw | vs last | target |",
                "|---|---|---|---|---|---|",
            ]
        }
        let ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? ""
        let target = row.target.map { $0.text + ($0.met ? " — met" : " — missed") } ?? ""
        let name = row.note.map { "\(row.name) (\($0))" } ?? row.name
        lines.append(
            "| \(cell(name)) | \(figure(row.median, row.unit)) | \(figure(row.p99, row.unit)) | \(ratio) | "
                + "\(last?.change(of: row) ?? "") | \(cell(target)) |")
    }
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
}
