#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The pages of code and read-only data that the daemon's program file and the shared libraries it loaded map in.
///
/// The libraries' are as many as the program's own once the daemon has served a while: GLib and GIO, SQLite, libdbus,
/// the C and C++ libraries, about 5 MB resident, most of it run once, at start-up (GLib registering its types, SQLite
/// setting itself up). `nb_release_program_pages` reaches the program's alone, from its ELF headers.
enum CodePages {
    /// Lets go of this process's mappings of file pages it never wrote: every mapping of a file that is not writable
    /// and holds no page of its own (`Anonymous: 0 kB` in `/proc/self/smaps`). Returns the bytes let go.
    ///
    /// Nothing is lost: the kernel maps a page back from the page cache the next time it is used. A read-only mapping
    /// that holds pages of its own, such as what the loader relocated and then made read-only (RELRO), is left alone:
    /// letting go of those would bring back the file's unrelocated bytes.
    static func release() -> Int {
        guard let smaps = readSmaps() else { return 0 }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        for line in smaps.split(separator: UInt8(ascii: "\n")) {
            if let mapping = Self.mapping(line) {
                candidate = mapping
            } else if let range = candidate, line.starts(with: "Anonymous:".utf8) {
                candidate = nil
                let kilobytes = line.dropFirst(10).split(separator: UInt8(ascii: " ")).first
                guard kilobytes.map(Array.init) == Array("0".utf8),
                    let address = UnsafeMutableRawPointer(bitPattern: range.start)
                else { continue }
                if madvise(address, Int(range.end - range.start), MADV_DONTNEED) == 0 {
                    released += Int(range.end - range.start)
                }
            }
        }
        return released
    }

    /// The range of a mapping's first line when it maps a file (a path, not `[vdso]` or an anonymous mapping) that is
    /// private and not writable; `nil` for any other line.
    private static func mapping(_ line: ArraySlice<UInt8>) -> (start: UInt, end: UInt)? {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard fields.count >= 6, fields[5].first == UInt8(ascii: "/") else { return nil }
        let permissions = Array(fields[1])
        guard permissions.count == 4, permissions[1] == UInt8(ascii: "-"), permissions[3] == UInt8(ascii: "p")
        else { return nil }
        let bounds = fields[0].split(separator: UInt8(ascii: "-"))
        guard bounds.count == 2, let start = UInt(String(decoding: bounds[0], as: UTF8.self), radix: 16),
            let end = UInt(String(decoding: bounds[1], as: UTF8.self), radix: 16), end > start
        else { return nil }
        return (start, end)
    }

    /// `/proc/self/smaps`, whole.
    private static func readSmaps() -> [UInt8]? {
        let descriptor = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
