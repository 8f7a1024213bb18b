import DBusCore
import Glibc

/// A calling process held still while its files are read: through the pidfd the bus gave (`ProcessFD`), the process
/// itself, not whichever process has its id by the time `/proc` is read.
///
/// A process id alone can be reused between the bus's answer and the reading of `/proc/PID`: a sandboxed app that
/// exits at the right moment could have its id taken by a host process and pass for it. With a pidfd, as
/// xdg-desktop-portal does, the id is read from the descriptor, `/proc/PID` is opened, and the descriptor is asked
/// again whether its process still runs under that id: from then on the opened directory can only show that process,
/// and a read through it fails, rather than show another, once the process is gone. The descriptor is asked once more
/// after the reads, so that a process that ended during them is not taken for one without a sandbox.
final class PinnedProcess {
    /// The process's id, as its pidfd tells.
    let pid: Int32
    /// `/proc/PID`, opened while the process ran under `pid`.
    private let directory: Int32
    private let pidfd: DBusFileDescriptor
    private let selfRoot: String

    /// What became of the attempt to hold the process.
    enum Failure: Error, Equatable {
        /// The process has ended: the pidfd says so.
        case exited
        /// The descriptor or `/proc` could not be read, with why.
        case unreadable(String)
    }

    /// Holds the process `pidfd` refers to, its files read under `processRoot` (`/proc`).
    ///
    /// - Parameter selfRoot: where this process's own descriptors are listed (`/proc/self`), for their `fdinfo`.
    init(pidfd: DBusFileDescriptor, processRoot: String, selfRoot: String = "/proc/self") throws(Failure) {
        let pid = try Self.pid(of: pidfd, selfRoot: selfRoot)
        let directory = open("\(processRoot)/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else {
            let error = errno
            if (try? Self.pid(of: pidfd, selfRoot: selfRoot)) == nil { throw .exited }
            throw .unreadable("\(processRoot)/\(pid) cannot be opened: \(String(cString: strerror(error)))")
        }
        // The directory was opened while the process ran, or the pid was reused in between: ask the pidfd again.
        guard (try? Self.pid(of: pidfd, selfRoot: selfRoot)) == pid else {
            close(directory)
            throw .exited
        }
        self.pid = pid
        self.directory = directory
        self.pidfd = pidfd
        self.selfRoot = selfRoot
    }

    deinit {
        close(directory)
    }

    /// The path of `relative` (`root/.flatpak-info`, `cgroup`) inside the held process's `/proc` directory, through
    /// the opened directory: valid only while this value lives.
    func path(_ relative: String) -> String {
        "\(selfRoot)/fd/\(directory)/\(relative)"
    }

    /// Whether the process still runs under the same id: what was read through ``path(_:)`` until now was its own.
    var isStillRunning: Bool {
        (try? Self.pid(of: pidfd, selfRoot: selfRoot)) == pid
    }

    /// The process id a pidfd refers to, from the `Pid:` line of its `fdinfo` (Linux 5.3 and later).
    static func pid(of pidfd: DBusFileDescriptor, selfRoot: String) throws(Failure) -> Int32 {
        let path = "\(selfRoot)/fdinfo/\(pidfd.rawValue)"
        guard case .contents(let text) = PeerDirectory.read(path) else {
            throw .unreadable("\(path) cannot be read")
        }
        return try pid(fromFileDescriptorInfo: text)
    }

    /// The process id in a pidfd's `fdinfo` text: its `Pid:` line, -1 once the process has ended (0 when it is in
    /// another pid namespace, which tells nothing usable).
    static func pid(fromFileDescriptorInfo text: String) throws(Failure) -> Int32 {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("Pid:") {
            let value = line.dropFirst(4).drop { $0 == " " || $0 == "\t" }
            guard let pid = Int32(value) else { throw .unreadable("its Pid line is not a number: '\(line)'") }
            if pid == -1 { throw .exited }
            guard pid > 0 else { throw .unreadable("it is in a process namespace this daemon cannot see into") }
            return pid
        }
        throw .unreadable("the descriptor the bus gave is not a pidfd (its fdinfo has no Pid line)")
    }
}
