import Foundation

/// The last committed table (`docs/performance-table.md`), read back so that each figure of this run says how it
/// moved: a regression shows in the run that causes it. Figures are read from the table's own text (`172 µs`,
/// `12.1 MB`), so the comparison is as fine as that text.
struct LastTable {
    /// The median figure of each row, in the row's unit, by group and then by the row's cell (name and note).
    private var figures: [String: [(cell: String, median: Double)]] = [:]
    /// When the last table was written, as it says.
    private(set) var written = ""

    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var group = ""
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("Written ") {
                written = String(line.dropFirst("Written ".count).prefix { $0 != " " })
            } else if line.hasPrefix("## ") {
                group = String(line.dropFirst(3)).replacingOccurrences(of: "\\|", with: "|")
            } else if line.hasPrefix("| "), !line.hasPrefix("| path |") {
                // Cells are split on `|` not preceded by a backslash.
                let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|")
                    .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{1}", with: "|") }
                guard cells.count >= 2, let median = Self.figure(cells[1]) else { continue }
                figures[group, default: []].append((cells[0], median))
            }
        }
    }

    /// How `row` moved since the last table: `+12% ▲ worse`, `-4% ▼`; empty where the last table has no such row.
    /// Worse is up for times and sizes, down for rates; a move of 5% or less is within the noise of a shared machine
    /// and is not called worse.
    func change(of row: ResultRow) -> String {
        guard
            let last = figures[row.group]?.first(where: { $0.cell == row.name || $0.cell.hasPrefix(row.name + " (") }),
            last.median > 0, row.median.isFinite
        else { return "" }
        let percent = (row.median / last.median - 1) * 100
        let rounded = Int(percent.rounded())
        if rounded == 0 { return "=" }
        let worse = row.unit == .perSecond ? percent < -5 : percent > 5
        return String(format: "%+d%% %@", rounded, rounded > 0 ? "▲" : "▼") + (worse ? " worse" : "")
    }

    /// A figure as the table writes it, in the unit of its row (`172 µs` is 172,000 ns; `12.1 MB` is bytes).
    static func figure(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard let number = parts.first.flatMap({ Double($0) }) else { return nil }
        let scale: Double =
            switch parts.count > 1 ? String(parts[1]) : "" {
            case "s": 1e9
            case "ms": 1e6
            case "µs": 1e3
            case "MB": 1e6
            default: 1
            }
        return number * scale
    }
}
