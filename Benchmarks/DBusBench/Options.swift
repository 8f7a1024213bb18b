/// What `dbus-bench` measures and how much; `--quick` scales every count down for a sanity run.
struct Options: Sendable {
    var baseline = "Benchmarks/bin/dbus-raw-baseline"
    var daemon = ""
    var cli = ""
    /// `bench-idle-floor`, the floor under the idle daemon's memory; empty: not measured.
    var floor = ""
    /// `bench-send-floor`, the floor under `notification-bridge send`; empty: not measured.
    var sendFloor = ""
    var jsonPath = "bench-results/bench.json"
    /// Where the table goes as Markdown, for the documentation to link (`docs/performance-table.md` for the run the
    /// package's build is measured by); empty: not written.
    var markdownPath = "bench-results/bench.md"
    /// The last committed table, which each figure is compared with ("vs last"); missing: no comparison.
    var comparePath = "docs/performance-table.md"
    var quick = false
    var rounds = 5
    var warmUp = 200
    var calls = 10_000
    var signals = 100_000
    var posts = 5_000
    var processRuns = 40
    var dispatches = 2_000
    /// Posts per level of throughput, spread over its clients, all under the daemon's default app name: under the
    /// 10,000 one app may have showing, or one client's level is refused half way.
    var throughputPosts = 8_000
    var churnWarmUp = 10_000
    var churn = 100_000
    var pending = 10_000
    var scheduled = 200
    var idleSeconds = 10
    /// How many notifications the scale rows list, withdraw and restart with.
    var scaleSizes = [1_000, 10_000, 100_000]
    /// `--only scale`: only the scale rows, for measuring a change to a listing, a withdrawal or a restart without the
    /// rest of the run (`--scale-sizes 10000,100000` chooses the sizes; the first is the one judged linear from).
    var onlyScale = false

    static let usage = """
        usage: dbus-bench --daemon PATH --cli PATH [--floor PATH] [--send-floor PATH] [--baseline PATH] \
        [--json PATH] [--markdown PATH] [--compare PATH] [--quick] [--rounds N] [--pending N] [--churn N] \
        [--only scale] [--scale-sizes N,N,...]
        """

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        // Applied after --quick, whatever their order.
        var overrides: [(WritableKeyPath<Options, Int>, Int)] = []
        var sizes: [Int]?
        while let argument = iterator.next() {
            if argument == "--quick" {
                quick = true
                continue
            }
            guard let value = iterator.next() else { throw BenchError("\(argument) needs a value\n\(Self.usage)") }
            switch argument {
            case "--baseline": baseline = value
            case "--daemon": daemon = value
            case "--cli": cli = value
            case "--floor": floor = value
            case "--send-floor": sendFloor = value
            case "--json": jsonPath = value
            case "--markdown": markdownPath = value
            case "--compare": comparePath = value
            case "--pending": overrides.append((\.pending, try Self.count(argument, value)))
            case "--churn": overrides.append((\.churn, try Self.count(argument, value)))
            case "--rounds": overrides.append((\.rounds, try Self.count(argument, value)))
            case "--only":
                guard value == "scale" else { throw BenchError("--only knows 'scale'\n\(Self.usage)") }
                onlyScale = true
            case "--scale-sizes":
                sizes = try value.split(separator: ",").map { try Self.count(argument, String($0)) }
            default: throw BenchError("unknown option \(argument)\n\(Self.usage)")
            }
        }
        guard !daemon.isEmpty, !cli.isEmpty else { throw BenchError("--daemon and --cli are needed\n\(Self.usage)") }
        if quick {
            self.rounds = 3
            calls = 2_000
            signals = 20_000
            posts = 1_000
            processRuns = 10
            dispatches = 300
            throughputPosts = 3_000
            churnWarmUp = 2_000
            churn = 10_000
            pending = 1_000
            scheduled = 100
            idleSeconds = 3
            scaleSizes = [1_000, 10_000]
        }
        for (key, value) in overrides { self[keyPath: key] = value }
        if let sizes, !sizes.isEmpty { scaleSizes = sizes }
    }

    private static func count(_ option: String, _ value: String) throws -> Int {
        guard let number = Int(value), number > 0 else { throw BenchError("\(option) needs a number above 0") }
        return number
    }

    var settings: [String: Any] {
        [
            "quick": quick, "rounds": rounds, "calls": calls, "signals": signals, "posts": posts,
            "process_runs": processRuns, "dispatches": dispatches, "throughput_posts": throughputPosts,
            "churn_warm_up": churnWarmUp, "churn": churn, "pending": pending, "scheduled": scheduled,
            "idle_seconds": idleSeconds, "scale_sizes": scaleSizes,
        ]
    }
}
