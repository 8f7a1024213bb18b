import DBusTestSupport
import Foundation
import Testing

@testable import bench_gates

/// The gates' thresholds are data: these check the committed table as `make gates` will read it, with no valgrind
/// and no bus, so that a mistyped line fails here in seconds rather than after minutes of counting.
@Suite("Count gates' table")
struct GateTableTests {
    static let tablePath = "Benchmarks/gates.tsv"

    static func committed() throws -> GateTable {
        try GateTable(contentsOf: repositoryFile(tablePath))
    }

    @Test("every path the table names is one the gates measure, with both metrics")
    func pathsAreKnown() throws {
        let table = try Self.committed()
        #expect(Set(table.paths) == Set(pathNames.keys))
        for path in table.paths {
            let metrics = Set(table.gates.filter { $0.path == path }.map(\.metric))
            #expect(metrics == Set(GateTable.Metric.allCases), "\(path) has \(metrics)")
        }
    }

    @Test("every threshold sits above the figure it was set from, by the documented margin at most")
    func thresholdsFollowTheRule() throws {
        for gate in try Self.committed().gates {
            #expect(gate.threshold > gate.measured, "\(gate.path) \(gate.metric)")
            let proposed = proposedThreshold(
                gate.metric, measured: gate.measured, perOperation: perOperationPaths.contains(gate.path))
            #expect(gate.threshold <= proposed, "\(gate.path) \(gate.metric): \(gate.threshold) over \(proposed)")
        }
    }

    @Test("a figure past its threshold fails with the path, the metric, the figure and the threshold")
    func failureSaysWhat() throws {
        let table = try GateTable(
            text: "# comment\ndaemon-post\tallocations\t287\t273.0\tnote\n", path: "test.tsv")
        let gate = try #require(table.gates.first)
        #expect(gate.failure(287) == nil)
        let failure = try #require(gate.failure(371.5))
        #expect(failure.hasPrefix("daemon-post allocations per operation: 371.5 is past the threshold 287"))
    }

    @Test("a malformed line is an error that names the file and the line")
    func malformedLine() {
        #expect(throws: GateError.self) {
            try GateTable(text: "daemon-post\tinstructions\tmany\t1\n", path: "test.tsv")
        }
    }
}
