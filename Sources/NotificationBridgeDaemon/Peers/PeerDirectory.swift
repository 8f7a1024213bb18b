import DBusCore
import Glibc
import Logging
import NotificationBridge
import NotificationStore
import Synchronization

/// The peer behind each connection that calls the daemon, identified at its first call and remembered until it leaves
/// the bus (a unique name is never given twice on one bus).
///
/// The bus tells the calling process (from the socket, which the caller cannot choose): by a pidfd where it gives one,
/// by its id otherwise (``PinnedProcess``). The process's root shows whether Flatpak put it in a sandbox
/// (`/proc/PID/root/.flatpak-info`); its AppArmor label (from the bus) and cgroup whether snapd did. A Flatpak app
/// reaches the session bus through `xdg-dbus-proxy`, which Flatpak runs in the app's sandbox, so the process the bus
/// names is the proxy, with the app's `/.flatpak-info`: this is how xdg-desktop-portal identifies it.
///
/// Anything that cannot be read is taken for a sandbox that could not be identified, never for the host: a process
/// whose root the daemon cannot look into may act on no other app's notifications.
final class PeerDirectory: Sendable {
    private let connection: DBusConnection
    /// Where the processes' files are read: `/proc`.
    private let processRoot: String
    private let logger: Logger
    private let known = Mutex<[String: Peer]>([:])

    init(connection: DBusConnection, processRoot: String = "/proc", logger: Logger) {
        self.connection = connection
        self.processRoot = processRoot
        self.logger = logger
    }

    /// The peer behind `sender`, if it has been identified.
    func known(_ sender: String) -> Peer? {
        known.withLock { $0[sender] }
    }

    /// The peer behind the connection with unique name `sender`.
    func peer(of sender: String) async -> Peer {
        if let peer = known(sender) { return peer }
        let peer = await identify(sender)
        known.withLock { $0[sender] = peer }
        if peer != .host {
            logger.debug("a sandboxed peer", metadata: ["dbus.sender": "\(sender)", "peer": "\(peer.description)"])
        }
        return peer
    }

    /// Forgets a connection that left the bus.
    func forget(_ sender: String) {
        _ = known.withLock { $0.removeValue(forKey: sender) }
    }

    private func identify(_ sender: String) async -> Peer {
        let credentials: ConnectionCredentials
        do {
            credentials = try await connection.credentials(of: sender)
        } catch {
            return .unidentified(kind: nil, why: "the bus did not say which process it is (\(error))")
        }
        return identify(credentials)
    }

    /// The peer the bus's credentials name: through the pidfd where the bus gives one (`ProcessFD`), which a reused
    /// process id cannot fool; by the process id on a bus that gives none.
    func identify(_ credentials: ConnectionCredentials) -> Peer {
        if let pidfd = credentials.processFD {
            let process: PinnedProcess
            do throws(PinnedProcess.Failure) {
                process = try PinnedProcess(pidfd: pidfd, processRoot: processRoot)
            } catch {
                switch error {
                case .exited: return .unidentified(kind: nil, why: "it ended before it could be identified")
                case .unreadable(let why): return .unidentified(kind: nil, why: "its pidfd cannot be read: \(why)")
                }
            }
            let peer = identify(
                files: process.path, describing: "\(processRoot)/\(process.pid)", label: credentials.securityLabel)
            guard process.isStillRunning else {
                return .unidentified(kind: nil, why: "it ended while it was being identified")
            }
            return peer
        }
        guard let pid = credentials.processID, pid > 0 else {
            return .unidentified(kind: nil, why: "the bus did not say which process it is")
        }
        return identify(
            files: { "\(processRoot)/\(pid)/\($0)" }, describing: "\(processRoot)/\(pid)",
            label: credentials.securityLabel)
    }

    /// The peer whose `/proc` files are at `files(relative)`, with the security label the bus read; `directory` names
    /// them in a message.
    private func identify(files: (String) -> String, describing directory: String, label: String?) -> Peer {
        let flatpakInfo: String?
        switch Self.read(files("root/.flatpak-info")) {
        case .contents(let text): flatpakInfo = text
        case .missing: flatpakInfo = nil
        case .unreadable(let error):
            return .unidentified(
                kind: nil, why: "its root (\(directory)/root) cannot be read: \(String(cString: strerror(error)))")
        }
        // The bus read the AppArmor label from the socket already (`SO_PEERSEC`); without one, a Snap is known by its
        // cgroup.
        let cgroup = Self.read(files("cgroup")).text
        return PeerIdentification.peer(flatpakInfo: flatpakInfo, securityLabel: label, cgroup: cgroup)
    }

    /// What reading a small file gave.
    enum FileRead {
        case contents(String)
        /// It does not exist (`ENOENT`, `ENOTDIR`).
        case missing
        /// Any other failure, with its `errno`.
        case unreadable(Int32)

        var text: String? {
            if case .contents(let text) = self { return text }
            return nil
        }
    }

    /// Reads a small file of `/proc`: a regular file only, so that a FIFO put in its place cannot hold the daemon up.
    static func read(_ path: String) -> FileRead {
        do throws(DurableFile.Failure) {
            guard let bytes = try DurableFile.read(path) else { return .missing }
            return .contents(String(decoding: bytes, as: UTF8.self))
        } catch {
            return error.code == ENOTDIR ? .missing : .unreadable(error.code)
        }
    }
}
