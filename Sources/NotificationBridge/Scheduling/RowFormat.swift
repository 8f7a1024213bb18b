/// The binary form of a stored row's value, which ``RowEncoder`` writes and ``RowDecoder`` reads: the owner's
/// `Codable` value, about three times faster to read back than JSON, which the store wrote before (a JSON row starts
/// with `{`, a binary one with ``version``, so both are read).
///
/// After the version byte comes the top value. A value is the bytes of what it encoded:
/// - a keyed container: its entries one after the other, each the key (its UTF-8 length as a varint, then the bytes)
///   and a frame;
/// - an unkeyed container: its elements' frames one after the other;
/// - a single value: a `Bool` as one byte (0 or 1), a signed integer as a zigzag varint, an unsigned one as a varint,
///   a `Double` or `Float` as its IEEE bit pattern in little-endian order (8 or 4 bytes), a `String` as its UTF-8
///   bytes, a ``RowBytes`` as its bytes.
///
/// A frame is ``null`` alone, or ``present``, the value's length as a varint and the value. Lengths make every frame
/// skippable, so that a reader looks keys up in any order and ignores the ones it does not know.
enum RowFormat {
    /// The first byte of a binary row.
    static let version: UInt8 = 1
    /// A frame that holds `nil`.
    static let null: UInt8 = 0
    /// A frame that holds a value.
    static let present: UInt8 = 1

    /// Appends `value` in LEB128: seven bits a byte, low bits first, the high bit set on all bytes but the last.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// How many bytes ``appendVarint(_:to:)`` writes for `value`.
    static func varintLength(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// Reads a varint at `index`, which it moves past it; `nil` when it runs past `end` or over 64 bits.
    static func readVarint(_ bytes: [UInt8], at index: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            guard shift < 64, shift < 63 || byte <= 1 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A signed integer as an unsigned one whose varint is short for small magnitudes, negative or not.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The inverse of ``zigzag(_:)``.
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
