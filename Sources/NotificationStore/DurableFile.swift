import Glibc

/// The file-system calls of the store (beside SQLite's own): each retries `EINTR` and reports failure as an errno
/// value. The daemon reads what a sandbox leaves about a process through ``read(_:)`` too.
package enum DurableFile {
    /// A failed call: the errno it set.
    package struct Failure: Error {
        package let code: Int32
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
    package static func read(_ path: String) throws(Failure) -> [UInt8]? {
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

    /// Copies the file at `path` to a new file `destination` (mode 0600), synced before it returns.
    static func copy(_ path: String, to destination: String) throws(Failure) {
        let (source, _) = try openRegular(path, flags: O_RDONLY)
        defer { close(source) }
        let (target, _) = try openRegular(destination, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        defer { close(target) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = try retryingInterrupts {
                chunk.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                written += try retryingInterrupts {
                    chunk.withUnsafeBytes { Glibc.write(target, $0.baseAddress! + written, count - written) }
                }
            }
        }
        _ = try retryingInterrupts { fsync(target) }
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
}
