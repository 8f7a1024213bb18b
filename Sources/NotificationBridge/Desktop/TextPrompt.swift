import NotificationBridgeAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Asks the user for a line of text in a small dialog of its own, with the first of `zenity`, `kdialog`, `yad` found
/// on the search path, or with a configured command.
///
/// A program is always started directly (`posix_spawn`), never through a shell, so no text of the request is ever
/// interpreted. The typed text is read from the program's standard output (one trailing newline removed) and given
/// only to the caller: it is never logged. The program is looked up on every call, so one installed later is found.
///
/// A configured command is run with its arguments as given and the request in its environment:
/// `NOTIFICATION_PROMPT_TITLE`, `NOTIFICATION_PROMPT_MESSAGE`, `NOTIFICATION_PROMPT_PLACEHOLDER`,
/// `NOTIFICATION_PROMPT_SUBMIT`. It must print the text and exit 0, or exit non-zero when the user cancels.
package struct TextPrompt: Sendable {
    /// The configured command (program first, then its arguments), or `nil` to use `zenity`, `kdialog` or `yad`.
    package let command: [String]?
    /// Where programs are looked up, `PATH` syntax; `nil` means this process's `PATH`.
    package let searchPath: String?
    /// How long the user may take; then the dialog is closed and the answer is `nil`.
    package let timeout: Duration
    /// The display `zenity`, `kdialog` and `yad` open their window on (`WAYLAND_DISPLAY`, else `DISPLAY`); `nil` when
    /// there is none, and then only a configured command can ask.
    package let display: String?

    /// Makes a prompt.
    ///
    /// - Parameters:
    ///   - command: a program and its arguments to use instead of `zenity`, `kdialog` or `yad`.
    ///   - searchPath: folders to look for programs in, `PATH` syntax; `nil` uses `PATH`.
    ///   - timeout: how long a prompt may stay open; 10 minutes unless given.
    ///   - display: the display of the graphical programs; this process's `WAYLAND_DISPLAY` or `DISPLAY` unless given.
    package init(
        command: [String]? = nil, searchPath: String? = nil, timeout: Duration = .seconds(600),
        display: String? = TextPrompt.sessionDisplay
    ) {
        self.command = command
        self.searchPath = searchPath
        self.timeout = timeout
        self.display = display
    }

    /// This process's display: `WAYLAND_DISPLAY`, else `DISPLAY`, when set and not empty.
    package static var sessionDisplay: String? {
        for name in ["WAYLAND_DISPLAY", "DISPLAY"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return nil
    }

    /// Whether a prompt can be shown: the configured program is there, or one of `zenity`, `kdialog`, `yad` is there
    /// and there is a display for its window.
    package var isAvailable: Bool { (try? resolveShowable()) != nil }

    /// The name of the program that would show the prompt (`zenity`, `kdialog`, `yad`, or the configured command's
    /// program as given), or `nil` when none is found; found is not enough without a display (``isAvailable``).
    package var programName: String? { (try? resolve())?.name }

    /// The text typed for `request`, as ``ask(_:)`` gives it, with a prompt that cannot start taken as the user
    /// cancelling (`nil`): what the user sees is the same.
    ///
    /// - Throws: `CancellationError` only, when the task is cancelled.
    package func typedText(for request: TextPromptRequest) async throws(CancellationError) -> String? {
        do {
            return try await ask(request)
        } catch let cancellation as CancellationError {
            throw cancellation
        } catch {
            return nil
        }
    }

    /// Shows the prompt and waits for the user.
    ///
    /// Waiting happens on a thread of its own, not on Swift's cooperative pool.
    ///
    /// - Returns: the text typed, without one trailing newline (possibly empty); `nil` when the user cancelled (the
    ///   program exited non-zero or was ended by a signal) or `timeout` passed (the program is then stopped).
    /// - Throws: ``TextPromptError`` when no program is available or it cannot be started; `CancellationError` when
    ///   the task is cancelled (the program is then stopped).
    package func ask(_ request: TextPromptRequest) async throws -> String? {
        let program = try resolveShowable()
        let result = try await PromptChild.run(
            executable: program.executable, arguments: program.arguments(for: request),
            environment: program.environment(for: request), timeout: timeout)
        switch result.ending {
        case .exited(0):
            var text = String(decoding: result.output, as: UTF8.self)
            if text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
            return text
        case .exited, .signaled, .timedOut:
            return nil
        case .cancelled:
            throw CancellationError()
        }
    }

    private var effectiveSearchPath: String {
        searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// The program to run, found now, with a display for it when it needs one.
    func resolveShowable() throws(TextPromptError) -> PromptProgram {
        let program = try resolve()
        if case .command = program.kind { return program }
        guard display != nil else { throw .noDisplay(program: program.name) }
        return program
    }

    /// The program to run, found now.
    func resolve() throws(TextPromptError) -> PromptProgram {
        if let command {
            guard let program = command.first, !program.isEmpty else { throw .emptyCommand }
            guard let executable = Self.find(program, in: effectiveSearchPath) else {
                throw .commandNotFound(program)
            }
            return PromptProgram(kind: .command(command), executable: executable)
        }
        for kind in [PromptProgram.Kind.zenity, .kdialog, .yad] {
            if let executable = Self.find(kind.name, in: effectiveSearchPath) {
                return PromptProgram(kind: kind, executable: executable)
            }
        }
        throw .noProgram(searchPath: effectiveSearchPath)
    }

    /// The path of an executable regular file: `program` itself when it holds a `/`, else the first match in the
    /// absolute folders of `searchPath` (the current folder is never searched): the rule `exec` commands follow too.
    static func find(_ program: String, in searchPath: String) -> String? {
        ExecRule.resolve(program, path: searchPath)
    }
}
