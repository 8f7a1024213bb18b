/// Bytes a stored value keeps as they are (a D-Bus message, say), written in a binary row (``RowFormat``) as one
/// value and read back with one copy; any other coder sees an array of numbers.
///
/// An `[UInt8]` would be encoded element by element, each a frame of its own: reading a few hundred bytes that way
/// took longer than the rest of the row.
package struct RowBytes: Codable, Sendable, Hashable {
    /// The bytes.
    package var bytes: [UInt8]

    /// Keeps `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package init(from decoder: any Decoder) throws {
        if let row = decoder as? RowDecoding {
            try row.requireValue(of: RowBytes.self)
            bytes = Array(row.bytes[row.range])
        } else {
            bytes = try [UInt8](from: decoder)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        if let row = encoder as? RowEncoding {
            row.node.set(.bytes(bytes))
        } else {
            try bytes.encode(to: encoder)
        }
    }
}
