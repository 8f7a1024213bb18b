/// The version of NotificationBridge: the one place it is written.
///
/// Every program prints it the same way (``line(for:)``), the daemon reports it in `GetServerInformation` and its
/// `Version` property, and `packaging/build-deb.sh` refuses to build a package whose `packaging/changelog` says
/// another version.
public enum ProgramVersion {
    /// The release number, e.g. `0.1.0`.
    public static let number = "0.1.0"

    /// What `--version` prints: the program's name and ``number``, e.g. `notification-bridged 0.1.0`.
    ///
    /// - Parameter program: the command's name as the user typed it.
    public static func line(for program: String) -> String { "\(program) \(number)" }
}
