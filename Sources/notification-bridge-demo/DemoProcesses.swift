import DBusTestSupport
import Dispatch
import Foundation
import TerminalNotificationServer

/// Everything the demo starts — the private bus and the programs on it — so that all of it stops however the demo
/// ends: normally, on a failure, or on Ctrl-C.
final class DemoProcesses: @unchecked Sendable {
    // Guarded by `lock`: the signal handler's queue and the demo's tasks both stop things.
    private let lock = NSLock()
    private var bus: PrivateBus?
    private var children: [(name: String, process: ChildProcess)] = []
    private var interruptions: [any DispatchSourceSignal] = []
    private var interrupted = false
    /// Held for the whole of a stop, so that the demo's own ending waits for a stop the signal handler began.
    private let stopping = NSLock()

    /// Whether SIGINT or SIGTERM came: the handler is stopping everything and will exit.
    var wasInterrupted: Bool { lock.withLock { interrupted } }

    /// Returns at once without an interruption; with one, waits for the signal handler to end the process.
    func waitIfInterrupted() {
        guard wasInterrupted else { return }
        while true { pause() }
    }

    /// On SIGINT (Ctrl-C) or SIGTERM: stops everything, says so, and exits with 128 + the signal number.
    func stopOnInterrupt() {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.withLock { interrupted = true }
                stopAll()
                TerminalOutput().line("\n◆ Interrupted: everything the demo started has stopped.")
                exit(128 + number)
            }
            source.resume()
            return source
        }
        lock.withLock { interruptions = sources }
    }

    /// Starts the private session bus.
    func startBus() throws -> PrivateBus {
        let bus = try PrivateBus.start()
        lock.withLock { self.bus = bus }
        return bus
    }

    /// Starts `arguments` and remembers it, to stop it at the end.
    func start(
        _ name: String, _ arguments: [String], environment: [String: String], standardInput: Int32? = nil,
        standardOutput: Int32? = nil
    ) throws -> ChildProcess {
        let child = try ChildProcess.spawn(
            arguments, environment: environment, standardInput: standardInput, standardOutput: standardOutput)
        lock.withLock { children.append((name, child)) }
        return child
    }

    /// Stops every program, newest first, then the bus; what each program's exit status was, by name. Safe to call
    /// more than once.
    @discardableResult
    func stopAll() -> [(name: String, status: Int32?)] {
        stopping.lock()
        defer { stopping.unlock() }
        let (children, bus) = lock.withLock {
            defer {
                self.children = []
                self.bus = nil
            }
            return (self.children, self.bus)
        }
        let statuses = children.reversed().map { child in (child.name, child.process.stop(grace: .seconds(5))) }
        bus?.stop()
        return statuses
    }
}
