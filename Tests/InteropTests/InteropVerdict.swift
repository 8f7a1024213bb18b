import Synchronization
import Testing

/// What one server's run came to, as the summary of `make interop` states it.
enum InteropVerdict: Sendable, Equatable {
    /// Every case that was run met every expectation; `notRun` names the cases not driven on this server, and why.
    case passed(cases: [String], notRun: [String])
    /// The first expectation that was not met, with the case it belongs to.
    case failed(firstFailure: String)
    /// The server was not run at all, and why.
    case skipped(reason: String)

    /// The summary line for `server` at `version`.
    func line(server: String, version: String?) -> String {
        let name = [server, version].compactMap { $0 }.joined(separator: " ")
        switch self {
        case .passed(let cases, let notRun):
            let extra = notRun.isEmpty ? "" : "; not run: " + notRun.joined(separator: "; ")
            return "\(name): passed (\(cases.joined(separator: ", "))\(extra))"
        case .failed(let firstFailure):
            return "\(name): FAILED, first failure: \(firstFailure)"
        case .skipped(let reason):
            return "\(name): skipped, \(reason)"
        }
    }
}

/// The expectations of one server's run: each one not met is a test issue, and the first one decides the server's
/// verdict. Cases run one after another; ``run(_:_:)`` names the case each failure belongs to.
final class InteropExpectations: Sendable {
    private struct State {
        var currentCase = "start"
        var casesRun: [String] = []
        var notRun: [String] = []
        var failures: [String] = []
    }

    private let state = Mutex(State())
    /// The cases this server does not run, and why: ``DebianRelease/notRun`` for it.
    private let notRunHere: [String: String]

    /// Expectations of a server that does not run the cases `notRunHere` names, for the reasons it gives.
    init(notRunHere: [String: String] = [:]) {
        self.notRunHere = notRunHere
    }

    /// Runs one case; an error it throws counts as a failed expectation of that case, and the next case still runs.
    /// A case the server does not run is noted with its reason instead.
    func run(_ name: String, _ body: () async throws -> Void) async {
        if let reason = notRunHere[name] { return notRun(name, because: reason) }
        state.withLock {
            $0.currentCase = name
            $0.casesRun.append(name)
        }
        do {
            try await body()
        } catch {
            fail("\(error)")
        }
    }

    /// Notes a case that is not driven on this server, with the reason.
    func notRun(_ name: String, because reason: String) {
        state.withLock { $0.notRun.append("\(name) (\(reason))") }
    }

    /// Records a failure unless `condition` holds.
    func check(
        _ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if !condition { fail(message(), sourceLocation: sourceLocation) }
    }

    /// Records a failure of the current case.
    func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = state.withLock { state in
            let line = "\(state.currentCase): \(message)"
            state.failures.append(line)
            return line
        }
        Issue.record(Comment(rawValue: line), sourceLocation: sourceLocation)
    }

    /// The verdict so far: failed at the first failure, else passed.
    var verdict: InteropVerdict {
        state.withLock { state in
            if let first = state.failures.first { return .failed(firstFailure: first) }
            return .passed(cases: state.casesRun, notRun: state.notRun)
        }
    }
}
