/// A focus mode, schedule or change that cannot be: the description says what was wrong and what to do.
struct FocusError: Error, Sendable, Hashable, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
