import Glibc
import Synchronization

/// An exclusive `flock` on `<state directory>/lock`: whoever holds it is the only process that reads or writes the
/// store there, whichever bus it serves.
///
/// The holder writes its process id into the file, so that a process refused the lock can say who holds it. The
/// lock goes with the process: it is released by ``release()`` or, after a crash or `kill -9`, by the kernel.
package final class StateDirectoryLock: Sendable {
    /// The name of the lock file in the state directory.
    package static var fileName: String { "lock" }

    /// The state directory.
    package let directory: String
    private let descriptor: Mutex<Int32>

    private init(directory: String, descriptor: Int32) {
        self.directory = directory
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Creates `directory` (mode 0700) if needed and takes its lock, waiting at most `limit` for another holder to
    /// let it go.
    ///
    /// Polls every few milliseconds while another process holds it; the wait happens at start-up only.
    ///
    /// - Throws: ``NotificationStoreError/locked(directory:holder:waited:)`` when the wait ran out,
    ///   ``NotificationStoreError/notRegular(path:kind:isDirectory:)`` for a directory or lock file that is a symbolic
    ///   link or not what it should be, and the errors of creating the directory or the file.
    package static func acquire(
        directory: String, within limit: Duration
    ) async throws(NotificationStoreError) -> StateDirectoryLock {
        do throws(DurableFile.Failure) {
            try DurableFile.makeDirectory(directory, mode: 0o700)
        } catch {
            throw NotificationStoreError.refusal(directory, error, isDirectory: true)
                ?? .cannotCreateDirectory(path: directory, errno: error.code)
        }
        let path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + fileName
        let descriptor: Int32
        do throws(DurableFile.Failure) {
            (descriptor, _) = try DurableFile.openRegular(path, flags: O_RDWR | O_CREAT, mode: 0o600)
        } catch {
            throw NotificationStoreError.refusal(path, error, isDirectory: false)
                ?? .cannotWrite(path: path, errno: error.code)
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .cannotWrite(path: path, errno: code)
            }
            guard clock.now < deadline, (try? await Task.sleep(for: .milliseconds(20))) != nil else {
                let holder = holder(in: descriptor)
                close(descriptor)
                throw .locked(directory: directory, holder: holder, waited: limit)
            }
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return StateDirectoryLock(directory: directory, descriptor: descriptor)
    }

    /// Lets the directory go; later calls do nothing.
    package func release() {
        let descriptor = self.descriptor.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The process id the holder wrote into the lock file, if it reads as one.
    private static func holder(in descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        return Int32(text.split(separator: "\n").first ?? "")
    }
}
