import CLinux
import DBusCore
import DBusTestSupport
import Foundation
import Glibc
import Logging
import Testing

@testable import NotificationBridgeDaemon

/// A caller identified through the pidfd a bus gives (`ProcessFD`, dbus-daemon 1.15.8 and later), which names the
/// process itself where a process id may by then name another: a real `bwrap` sandbox's proxy, this test process for
/// the host, and a process that has ended.
@Suite(
    "Peers identified by their pidfd",
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct PidfdPeerTests {
    static let evil = "org.example.Evil"

    /// A pidfd of `pid`, owned by the value.
    static func pidfd(of pid: Int32) throws -> DBusFileDescriptor {
        let descriptor = nb_pidfd_open(pid)
        guard descriptor >= 0 else { throw TestSupportError("pidfd_open(\(pid)): errno \(errno)") }
        return DBusFileDescriptor(taking: descriptor)
    }

    /// A private bus, the directory the daemon would use on it, and a sandbox of ``evil`` with the process id of its
    /// proxy, which the bus names for the sandbox's connections.
    static func with(_ body: (PeerDirectory, _ sandboxPID: UInt32) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let sandbox = try await FlatpakSandbox.start(appID: evil, on: bus, talk: [])
            defer { sandbox.stop() }
            let inside = try await sandbox.connect()
            let credentials = try await connection.credentials(of: inside.uniqueName)
            let sandboxPID = try #require(credentials.processID)
            try await body(PeerDirectory(connection: connection, logger: Logger(label: "test")), sandboxPID)
            await inside.close()
            await connection.close()
        }
    }

    @Test("the pidfd decides, whatever process id comes beside it: the sandbox is the sandbox, the host the host")
    func pidfdWinsOverTheProcessID() async throws {
        try await Self.with { peers, sandboxPID in
            let sandbox = try Self.pidfd(of: Int32(sandboxPID))
            let host = try Self.pidfd(of: getpid())
            let app = Peer.sandboxed(SandboxedApp(kind: .flatpak, id: Self.evil))
            #expect(peers.identify(ConnectionCredentials(processID: UInt32(getpid()), processFD: sandbox)) == app)
            #expect(peers.identify(ConnectionCredentials(processID: sandboxPID, processFD: host)) == .host)
            // A bus that gives no pidfd: the process id, as before.
            #expect(peers.identify(ConnectionCredentials(processID: sandboxPID)) == app)
            #expect(peers.identify(ConnectionCredentials(processID: UInt32(getpid()))) == .host)
        }
    }

    @Test("a process that ended is not identified, even where its id now names the host")
    func endedProcessIsUnidentified() async throws {
        try await Self.with { peers, _ in
            // A pidfd of a child that has not been waited for is valid even once it exits. Foundation's Process
            // reaps its children by itself, at any moment: this one is reaped only once the pidfd is taken.
            let child = try ChildProcess.spawn(["/bin/true"])
            let pidfd = try Self.pidfd(of: child.pid)
            #expect(await child.wait(within: .seconds(20)) == 0, "/bin/true did not end")
            let peer = peers.identify(ConnectionCredentials(processID: UInt32(getpid()), processFD: pidfd))
            guard case .unidentified(nil, let why) = peer else {
                Issue.record("an ended process was identified as \(peer)")
                return
            }
            #expect(why.contains("it ended before"), "\(why)")
        }
    }

    @Test(
        "the process id is read from the pidfd's fdinfo",
        arguments: [
            ("pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1057\nPid:\t4321\nNSpid:\t4321\n", Int32(4321)),
            ("Pid: 17\n", 17),
        ])
    func fdinfoPid(text: String, pid: Int32) throws {
        #expect(try PinnedProcess.pid(fromFileDescriptorInfo: text) == pid)
    }

    @Test(
        "an fdinfo that names no process it can read is refused, and an ended one says so",
        arguments: [
            ("Pid:\t-1\n", PinnedProcess.Failure.exited),
            (
                "pos:\t0\nflags:\t02\n",
                .unreadable("the descriptor the bus gave is not a pidfd (its fdinfo has no Pid line)")
            ),
            ("Pid:\t0\n", .unreadable("it is in a process namespace this daemon cannot see into")),
            ("Pid:\tseven\n", .unreadable("its Pid line is not a number: 'Pid:\tseven'")),
        ])
    func fdinfoRefused(text: String, failure: PinnedProcess.Failure) {
        #expect(throws: failure) { try PinnedProcess.pid(fromFileDescriptorInfo: text) }
    }
}
