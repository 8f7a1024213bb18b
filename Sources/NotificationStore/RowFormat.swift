/// The binary form of a stored row's value, which ``RowEncoder`` writes and ``RowDecoder`` reads: the owner's
/// `Codable` value, about three times faster to read back than JSON.
///
/// A row starts with its format version. The version covers the layout below and the names of the fields each
/// stored type writes (its coding keys): those names belong to the stored form, not to the daemon's D-Bus keys, and a
/// change to either the layout or a name is a new version, with a reading path for the rows of the versions before.
/// The rows each version wrote are kept as test fixtures, which every later version must still read.
///
/// - Version 1 wrote a `JSONValue` (a notification's user info) through its own `Codable`, which this form, not
///   describing itself, cannot read back: a string of eight bytes came back as a number, one of one byte as a `Bool`,
///   an array or an object as a string. Its rows are still read as it read them.
/// - Version 2 writes a `JSONValue` as a keyed container of one entry whose key names its kind (`null`, `bool`,
///   `number`, `string`, `array`, `object`), each element or member written the same way.
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
    /// The first byte of every row: the format version (the layout and the field names) it was written in. Rows are
    /// written in this version.
    static let version: UInt8 = 2
    /// The format versions read: from the first to ``version``.
    static let readableVersions: ClosedRange<UInt8> = 1...version
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

extension RowFormat {
    /// Where the value at `path` lies in the binary row `bytes`: `path` names a key of the top keyed container, then
    /// a key of the keyed container that is its value, and so on. For a value kept ready to use (``RowBytes``), read
    /// from thousands of rows without decoding anything else of them.
    ///
    /// - Returns: `nil` when `bytes` are not a binary row, a key is missing, a value on the way is `nil`, or a frame
    ///   is damaged.
    static func valueRange(at path: [String], in bytes: [UInt8]) -> Range<Int>? {
        guard let first = bytes.first, readableVersions.contains(first) else { return nil }
        var range = 1..<bytes.count
        for key in path {
            guard let found = entryValue(key, in: range, of: bytes) else { return nil }
            range = found
        }
        return range
    }

    /// The value of the entry `key` of the keyed container in `range`; `nil` when it has none, holds `nil`, or is
    /// damaged.
    private static func entryValue(_ key: String, in range: Range<Int>, of bytes: [UInt8]) -> Range<Int>? {
        var key = key
        return key.withUTF8 { wanted -> Range<Int>? in
            var index = range.lowerBound
            let end = range.upperBound
            while index < end {
                guard let keyLength = readVarint(bytes, at: &index, end: end), keyLength <= UInt64(end - index)
                else { return nil }
                let keyStart = index
                index += Int(keyLength)
                guard index < end else { return nil }
                let marker = bytes[index]
                index += 1
                var value = index..<index
                if marker == present {
                    guard let length = readVarint(bytes, at: &index, end: end), length <= UInt64(end - index)
                    else { return nil }
                    value = index..<(index + Int(length))
                    index = value.upperBound
                } else if marker != null {
                    return nil
                }
                guard Int(keyLength) == wanted.count,
                    bytes[keyStart..<(keyStart + wanted.count)].elementsEqual(wanted)
                else { continue }
                return marker == present ? value : nil
            }
            return nil
        }
    }
}
