import Foundation
import ProcessSupport

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    /// The exit status (or the signal number, for a process killed by a signal).
    public var status: Int32
    /// Everything it wrote to standard output.
    public var standardOutput: String
    /// Everything it wrote to standard error.
    public var standardError: String

    /// A result with the given status and output, e.g. of a command run in the test's own process.
    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Standard output without the final newline.
    public var output: String {
        standardOutput.hasSuffix("\n") ? String(standardOutput.dropLast()) : standardOutput
    }
}

/// Finds programs on `PATH`.
public enum ExecutableLookup {
    /// The full path of `name` on `PATH`, or `nil`.
    public static func find(_ name: String) -> URL? {
        ExecutableSearch.resolve(name).map(URL.init(fileURLWithPath:))
    }
}

/// Runs a program to its end, bounded in time: the tests' way to drive real clients such as `gdbus`.
public enum ProcessRunner {
    /// Runs `arguments[0]` (looked up on `PATH`) with the rest as its arguments.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment (for example ``PrivateBus/environment``).
    ///   - input: bytes written to its standard input, which is then closed.
    ///   - timeout: the longest it may run; then it is killed and this throws.
    /// - Throws: ``TestSupportError`` when the program is missing or runs past `timeout`.
    public static func run(
        _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        guard let program = arguments.first else { throw TestSupportError("no program to run") }
        guard let executable = program.contains("/") ? URL(fileURLWithPath: program) : ExecutableLookup.find(program)
        else {
            throw TestSupportError("\(program) is not installed; 'make test' installs what the tests need")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nb-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let outFile = open(outURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFile = open(errURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(outFile)
            close(errFile)
        }
        var inputEnds: [Int32] = [-1, -1]
        if input != nil {
            // Close-on-exec from the start: a program another test starts must not keep the input open.
            let ends = try ClosedOnExecPipe.make()
            inputEnds = [ends.read, ends.write]
        }
        let child: ChildProcess
        do {
            defer { if inputEnds[0] >= 0 { close(inputEnds[0]) } }
            child = try ChildProcess.spawn(
                [executable.path] + arguments.dropFirst(), environment: environment,
                standardInput: input == nil ? nil : inputEnds[0], standardOutput: outFile, standardError: errFile)
        }
        if let input {
            let writer = FileHandle(fileDescriptor: inputEnds[1], closeOnDealloc: true)
            try? writer.write(contentsOf: input)
            try? writer.close()
        }
        guard let status = await child.wait(within: timeout) else {
            child.stop(grace: .milliseconds(200))
            throw TestSupportError("\(arguments.joined(separator: " ")) did not finish within \(timeout)")
        }
        return ProcessResult(
            status: status,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }
}
