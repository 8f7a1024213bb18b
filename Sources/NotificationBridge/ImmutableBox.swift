/// A value kept out of line, behind one reference: a struct that holds a large value this way stays a few words wide,
/// so that collections of thousands of them move and store references rather than whole values. Replaced, never
/// changed, when the value changes.
package final class ImmutableBox<Value> {
    /// The value.
    package let value: Value

    /// Boxes `value`.
    package init(_ value: Value) {
        self.value = value
    }
}

// Immutable: as safe to share as the value it holds.
extension ImmutableBox: @unchecked Sendable where Value: Sendable {}
