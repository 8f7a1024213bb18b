/// Writes values in D-Bus wire form, in this machine's byte order, aligned from the start of the message being
/// written (the marshalling rules:
/// <https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol-marshaling>).
///
/// Only what ``DBusDictionaryList`` needs: basic values, variants of basic values, and the frame of arrays and
/// dictionary entries. libdbus checks the whole message when it is read back
/// (``ConnectionCore/makeMethodReturn(signature:body:serial:to:)``).
struct WireWriter {
    static let littleEndian = UInt8(ascii: "l")
    static let nativeByteOrder = 1.littleEndian == 1 ? littleEndian : UInt8(ascii: "B")

    private(set) var bytes: [UInt8] = []

    static func aligned(_ offset: Int, to alignment: Int) -> Int {
        (offset + alignment - 1) / alignment * alignment
    }

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func uint32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func uint64(_ value: UInt64) {
        pad(to: 8)
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Writes `value` at `offset`, which an earlier ``uint32(_:)`` reserved.
    mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    /// A string or an object path: length, bytes, NUL.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            uint32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    /// A signature: one length byte, bytes, NUL.
    mutating func signature(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(truncatingIfNeeded: utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    /// Makes room for `count` bytes in all, so that writing up to that many does not copy what was written.
    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// Drops what was written after the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    mutating func append(contentsOf other: ArraySlice<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// A variant holding a basic value; `false` (and nothing written) for any other value.
    mutating func variant(_ value: DBusValue) -> Bool {
        switch value {
        case .byte(let number): signature("y"); byte(number)
        case .boolean(let flag): signature("b"); uint32(flag ? 1 : 0)
        case .int32(let number): signature("i"); uint32(UInt32(bitPattern: number))
        case .uint32(let number): signature("u"); uint32(number)
        case .int64(let number): signature("x"); uint64(UInt64(bitPattern: number))
        case .uint64(let number): signature("t"); uint64(number)
        case .double(let number): signature("d"); uint64(number.bitPattern)
        case .string(let text): signature("s"); string(text)
        case .objectPath(let path): signature("o"); string(path.rawValue)
        default: return false
        }
        return true
    }
}
