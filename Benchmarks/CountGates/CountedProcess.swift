import DBusTestSupport
import Foundation

/// What a process cost, as counted, not timed: the instructions it ran (callgrind, every thread) and the heap
/// allocations it asked for (the malloc-counting library preloaded into it).
struct Counts: Sendable {
    var instructions: Double
    var allocations: Double

    static func - (later: Counts, earlier: Counts) -> Counts {
        Counts(
            instructions: later.instructions - earlier.instructions,
            allocations: later.allocations - earlier.allocations)
    }

    static func / (counts: Counts, operations: Int) -> Counts {
        Counts(
            instructions: counts.instructions / Double(operations),
            allocations: counts.allocations / Double(operations))
    }
}

/// The cost of one operation of `path`: `run(count, tag)` counted with N and with 2N operations, each `repeats` times;
/// the least of each count is kept, and the difference over N is returned. The timing between processes moves a run's
/// counts (a wake-up more or less, a message read alone or with the next); the least of a few runs trims the outliers
/// it adds, though a loaded machine can move the whole range (see the margins in Benchmarks/gates.tsv).
func costOfOne(
    _ path: String, operations: Int, repeats: Int, _ run: (_ count: Int, _ tag: String) async throws -> Counts
) async throws -> Counts {
    var least: [Counts] = []
    for count in [operations, 2 * operations] {
        var best: Counts?
        for attempt in 1...repeats {
            progress("\(path): \(count) operations, counted (\(attempt) of \(repeats))")
            let counts = try await run(count, "\(path)-\(count)-\(attempt)")
            best = Counts(
                instructions: min(best?.instructions ?? counts.instructions, counts.instructions),
                allocations: min(best?.allocations ?? counts.allocations, counts.allocations))
        }
        if let best { least.append(best) }
    }
    return (least[1] - least[0]) / operations
}

/// Starts programs under `valgrind --tool=callgrind` with the malloc counter preloaded, and reads what each cost once
/// it has ended. Each run is named by a tag; its files are `<tag>.callgrind` and `<tag>.mallocs` in `folder`.
struct Counter: Sendable {
    /// `valgrind` on `PATH`.
    let valgrind: String
    /// The malloc-counting library (`Benchmarks/malloc-count`, built by `make gates`).
    let shim: String
    /// A library loaded before the counter into every counted process, if any: the planted regression of
    /// `make gates-selftest`.
    var preload: String? = nil
    /// Where the runs' files go.
    let folder: URL

    /// `arguments` as a command that counts, and the environment additions it needs.
    func command(_ arguments: [String], tag: String) -> (arguments: [String], environment: [String: String]) {
        let counted = [
            valgrind, "--tool=callgrind", "--quiet", "--callgrind-out-file=\(file(tag, "callgrind").path)",
            // Nothing but the instruction count is read: no cache or branch simulation, no per-line detail.
            "--dump-line=no", "--compress-strings=no",
        ]
        // Swift seeds its hashing at random in each process, which moves the probes of every Set and Dictionary
        // from run to run: fixed here, so that the same work counts the same.
        return (
            counted + arguments,
            [
                "LD_PRELOAD": [preload, shim].compactMap { $0 }.joined(separator: ":"),
                "NB_MALLOC_COUNT_FILE": file(tag, "mallocs").path,
                "SWIFT_DETERMINISTIC_HASHING": "1",
            ]
        )
    }

    /// Starts `arguments` counted, with `environment` plus what counting needs; output goes to `log`.
    func spawn(_ arguments: [String], tag: String, environment: [String: String], log: String) throws -> ChildProcess {
        let (counted, additions) = command(arguments, tag: tag)
        let output = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(output) }
        return try ChildProcess.spawn(
            counted, environment: environment.merging(additions) { $1 }, standardOutput: output,
            standardError: output)
    }

    /// What the run `tag` cost, once its process has ended: callgrind's total of instructions, and the allocations
    /// of the process valgrind ran (the one line the counter wrote).
    func counts(of tag: String) throws -> Counts {
        let profile = try String(contentsOf: file(tag, "callgrind"), encoding: .utf8)
        // "totals:" follows each dump's events; "summary:" is the whole run. One dump at exit: either will do.
        let instructions = profile.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("summary:") || line.hasPrefix("totals:") else { return nil }
            return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        }.first
        guard let instructions else { throw GateError("no instruction total in \(file(tag, "callgrind").path)") }
        let lines = try String(contentsOf: file(tag, "mallocs"), encoding: .utf8).split(separator: "\n")
        guard lines.count == 1, let allocations = lines[0].split(separator: " ").last.flatMap({ Double($0) }) else {
            throw GateError("expected one count in \(file(tag, "mallocs").path), found \(lines.count)")
        }
        return Counts(instructions: instructions, allocations: allocations)
    }

    private func file(_ tag: String, _ kind: String) -> URL {
        folder.appendingPathComponent("\(tag).\(kind)")
    }
}

/// A failure of the gates' own machinery (not a gate that failed: that is a result).
struct GateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Progress on standard error, so that standard output holds the results alone.
func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
