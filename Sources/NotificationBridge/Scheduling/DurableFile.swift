import Glibc

/// The file-system calls of the store: each retries `EINTR` and reports failure as an errno value.
enum DurableFile {
    /// A failed call: the errno it set.
    struct Failure: Error {
        let code: Int32
    }

    /// Faults to inject into ``replace(_:with:mode:faults:)`` and ``append(_:to:faults:)``, for tests of atomicity.
    struct Faults: Sendable {
        /// Fail with `EIO` after writing this many bytes.
        var failWriteAfterBytes: Int?
    }

    /// Calls `body` until it does not fail with `EINTR`.
    private static func retryingInterrupts<Result: BinaryInteger>(_ body: () -> Result) throws(Failure) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            guard errno == EINTR else { throw Failure(code: errno) }
        }
    }

    /// Creates `path` and any missing parents with `mode`, and sets `path` itself to `mode`.
    ///
    /// Parents are created with the same mode, as the XDG base-directory specification asks for the state home.
    /// `path` itself must be a directory, not a symbolic link to one (`ELOOP`) nor anything else (`ENOTDIR`).
    static func makeDirectory(_ path: String, mode: mode_t) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0, errno != EEXIST { throw Failure(code: errno) }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Failure(code: errno) }
        guard status.st_mode & S_IFMT != S_IFLNK else { throw Failure(code: ELOOP) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(code: ENOTDIR) }
        if status.st_mode & 0o7777 != mode {
            guard chmod(path, mode) == 0 else { throw Failure(code: errno) }
        }
    }

    /// Opens `path` with `flags`, never following a final symbolic link (`ELOOP`) and never waiting for the other end
    /// of a FIFO; a directory is refused with `EISDIR`, anything else but a regular file with `EINVAL`.
    ///
    /// - Returns: The descriptor, in blocking mode, and the file's size.
    static func openRegular(_ path: String, flags: Int32, mode: mode_t = 0) throws(Failure) -> (Int32, Int) {
        let descriptor = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            // A FIFO without a reader refuses a non-blocking writer with ENXIO: it is not a regular file either.
            throw Failure(code: errno == ENXIO ? EINVAL : errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(code: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(code: status.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, Int(status.st_size))
    }

    /// The contents of the file at `path`, or `nil` when there is no such file.
    ///
    /// - Throws: `ELOOP` for a symbolic link, `EINVAL` for anything else that is not a regular file.
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let descriptor: Int32
        do throws(Failure) {
            (descriptor, _) = try openRegular(path, flags: O_RDONLY)
        } catch {
            if error.code == ENOENT { return nil }
            throw error
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try retryingInterrupts {
                chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    ///
    /// Writes a temporary file in the same directory with `mode`, syncs it, renames it over `path` and syncs the
    /// directory. A crash at any point leaves either the old file or the new one, complete. On failure the temporary
    /// file is removed and `path` is untouched.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t, faults: Faults) throws(Failure) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = try retryingInterrupts { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        var closed = false
        do throws(Failure) {
            // The umask may have taken bits away.
            guard fchmod(descriptor, mode) == 0 else { throw Failure(code: errno) }
            try writeAll(bytes, to: descriptor, failAfter: faults.failWriteAfterBytes)
            _ = try retryingInterrupts { fsync(descriptor) }
            closed = true
            // close reports delayed write errors on some file systems: check it.
            guard close(descriptor) == 0 else { throw Failure(code: errno) }
            _ = try retryingInterrupts { rename(temporary, path) }
        } catch {
            if !closed { close(descriptor) }
            unlink(temporary)
            throw error
        }
        try syncDirectory(containing: path)
    }

    /// Opens `path` for appending, creating it with `mode` if needed (and then syncing the directory, so the new
    /// name survives a crash).
    ///
    /// - Returns: The descriptor and the file's size.
    ///
    /// - Throws: `ELOOP` for a symbolic link, `EINVAL` for anything else that is not a regular file.
    static func openForAppending(_ path: String, mode: mode_t) throws(Failure) -> (descriptor: Int32, size: Int) {
        var created = true
        var descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        var size = 0
        if descriptor < 0, errno == EEXIST {
            created = false
            (descriptor, size) = try openRegular(path, flags: O_WRONLY | O_APPEND)
        }
        guard descriptor >= 0 else { throw Failure(code: errno) }
        guard fchmod(descriptor, mode) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(code: code)
        }
        if created {
            do throws(Failure) {
                try syncDirectory(containing: path)
            } catch {
                close(descriptor)
                throw error
            }
        }
        return (descriptor, size)
    }

    /// Appends `bytes` to a file opened with ``openForAppending(_:mode:)`` and syncs its data.
    static func append(_ bytes: [UInt8], to descriptor: Int32, faults: Faults) throws(Failure) {
        try writeAll(bytes, to: descriptor, failAfter: faults.failWriteAfterBytes)
        _ = try retryingInterrupts { fdatasync(descriptor) }
    }

    /// Cuts a file back to `length` bytes and syncs it.
    static func truncate(_ descriptor: Int32, to length: Int) throws(Failure) {
        _ = try retryingInterrupts { ftruncate(descriptor, off_t(length)) }
        _ = try retryingInterrupts { fsync(descriptor) }
    }

    /// Renames `path` to `destination`, then syncs the directory.
    static func move(_ path: String, to destination: String) throws(Failure) {
        _ = try retryingInterrupts { rename(path, destination) }
        try syncDirectory(containing: path)
    }

    /// What is at `path` when it is not a regular file or a directory ("a symbolic link", "a FIFO", …), else `nil`.
    static func oddKind(at path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFREG, S_IFDIR: return nil
        default: return "not a regular file"
        }
    }

    /// Whether anything exists at `path` (without following a final symbolic link).
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The permission bits of the file at `path`.
    static func mode(of path: String) throws(Failure) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(code: errno) }
        return status.st_mode & 0o7777
    }

    /// Makes a rename in the directory of `path` durable.
    private static func syncDirectory(containing path: String) throws(Failure) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = try retryingInterrupts {
            open(directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        defer { close(descriptor) }
        _ = try retryingInterrupts { fsync(descriptor) }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, failAfter limit: Int?) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            var end = bytes.count
            if let limit {
                guard offset < limit else { throw Failure(code: EIO) }
                end = min(end, limit)
            }
            let written = try retryingInterrupts {
                bytes[offset..<end].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            offset += written
        }
    }
}
