import DBusTestSupport
import Foundation

/// The C baseline program (`Benchmarks/raw-baseline`): runs one of its modes on the private bus and reads the JSON
/// line it prints.
struct Baseline: Sendable {
    let path: String
    let environment: [String: String]

    func run(_ arguments: [String], timeout: Duration = .seconds(300)) async throws -> [String: Any] {
        let result = try await ProcessRunner.run([path] + arguments, environment: environment, timeout: timeout)
        guard result.status == 0,
            let line = result.standardOutput.split(separator: "\n").last,
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            throw BenchError(
                "baseline \(arguments.joined(separator: " ")) failed (\(result.status)): "
                    + result.standardError)
        }
        return object
    }

    /// Starts a mode that prints `ready` once it serves (a server, a receiver), and returns once it has; the caller
    /// stops it. Its later output, if any, is read from the returned reader.
    ///
    /// - Throws: when it cannot start, or says nothing for 10 s (it is stopped then).
    func start(_ arguments: [String], waitingFor what: String) throws -> (ChildProcess, LineReader) {
        let (output, writeEnd) = try LineReader.pipe()
        let child: ChildProcess
        do {
            defer { close(writeEnd) }
            child = try ChildProcess.spawn([path] + arguments, environment: environment, standardOutput: writeEnd)
        }
        do {
            _ = try output.nextLine(within: .seconds(10), waitingFor: what)
        } catch {
            child.stop(grace: .seconds(1))
            throw error
        }
        return (child, output)
    }

    /// A mode that prints `median_ns` and `p99_ns`.
    func latency(_ arguments: [String]) async throws -> Latency {
        let object = try await run(arguments)
        return Latency(median: number(object, "median_ns"), p99: number(object, "p99_ns"))
    }
}

func number(_ object: [String: Any], _ key: String) -> Double {
    (object[key] as? NSNumber)?.doubleValue ?? .nan
}
