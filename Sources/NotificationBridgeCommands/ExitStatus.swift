/// The exit statuses of `notification-bridge`, as its `--help` documents them.
enum ExitStatus {
    /// The command did what was asked; with `--wait`, `wait` and `alert`, an action (other than an alert's cancel
    /// button) was chosen.
    static let success: Int32 = 0
    /// The daemon or the bus refused or failed: the message says why.
    static let failure: Int32 = 1
    /// The command line is wrong, found by the parser or by the daemon: the message names the argument and what it
    /// accepts.
    static let usage: Int32 = 2
    /// The notification closed without a response (dismissed, expired, withdrawn, closed by Ctrl-C while waiting), or
    /// an alert was cancelled.
    static let closed: Int32 = 3

    /// The text `--help` shows.
    static let help = """
        EXIT STATUS:
          0  done; with --wait, wait and alert: an action was chosen
          1  the daemon or the bus failed (the message says why)
          2  usage error, found here or by the daemon (the message names the
             option and what it accepts)
          3  closed without a response (dismissed, expired, withdrawn, or
             closed by Ctrl-C during --wait); alert: cancelled
        """
}

/// A failure the CLI reports itself: one line on standard error and an exit status.
struct CLIFailure: Error {
    var message: String
    var status: Int32

    init(_ message: String, status: Int32 = ExitStatus.failure) {
        self.message = message
        self.status = status
    }

    /// A closure without a response; `message` may be empty when the output already said it.
    static func closed(_ message: String) -> CLIFailure { CLIFailure(message, status: ExitStatus.closed) }
}
