#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A unix file descriptor carried by a message (D-Bus type `h`), owned by this value: it is closed when the last
/// reference to it goes.
///
/// A descriptor read from a message is the receiver's own copy (libdbus duplicates it out of the message), so it is
/// never shared with the message or another reader. Writing one into a message duplicates it again: the value keeps
/// its own, and the message (and the peer that receives it) gets another. A value passed between tasks therefore
/// never closes a descriptor someone else still uses, and none is leaked once every value holding it is gone.
///
/// Two values are equal only when they are the same value; two descriptors of one open file are not, since either
/// can be closed without the other.
public final class DBusFileDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor number, valid for as long as this value is alive. Do not close it; duplicate it to keep it.
    public let rawValue: Int32

    /// Takes ownership of `descriptor`, which this value closes when it goes.
    ///
    /// - Precondition: `descriptor` is open and no one else will close it.
    public init(taking descriptor: Int32) {
        precondition(descriptor >= 0, "a file descriptor is never negative")
        rawValue = descriptor
    }

    /// Duplicates `descriptor` (close-on-exec); the caller keeps `descriptor` and this value owns the copy.
    ///
    /// - Throws: `DBusFailure` naming the error when the descriptor cannot be duplicated (not open, or too many open).
    public convenience init(duplicating descriptor: Int32) throws(DBusFailure) {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw DBusFailure(
                name: DBusFailure.Name.failed,
                message: "file descriptor \(descriptor) cannot be duplicated: \(String(cString: strerror(errno)))")
        }
        self.init(taking: copy)
    }

    deinit {
        close(rawValue)
    }

    /// Whether the two are the same value (not merely descriptors of one open file).
    public static func == (lhs: DBusFileDescriptor, rhs: DBusFileDescriptor) -> Bool {
        lhs === rhs
    }

    /// Hashes the value's identity, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// `fd 7`: the number this process knows it by, which means nothing to another process.
    public var description: String { "fd \(rawValue)" }
}
