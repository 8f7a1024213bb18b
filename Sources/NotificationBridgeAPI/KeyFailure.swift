import DBusCore

/// An `InvalidArgument` about the value of one key: the dictionary it is in, the key, and what is wrong with its
/// value, each a part of the error's message, so that each reader can name the key in its own terms.
///
/// The message has a fixed form, `PLACE key 'KEY' PROBLEM`: the place is one word (`notification`, `options`,
/// `actions[1]`, `filter`), the key is in single quotes, and the problem follows it (`notification key 'in' is -5;
/// use a number of seconds above 0, e.g. 'in': <60.0>`). A D-Bus caller reads the message as it is, which names the
/// key; a client that has words of its own for the key (the command line names `in` by its option `--in`) reads the
/// parts and writes `--in is -5; …`:
///
/// ```swift
/// catch let failure as DBusFailure {
///     if let refusal = KeyFailure(failure) { print("\(option(for: refusal.key)) \(refusal.problem)") }
/// }
/// ```
///
/// The parts travel in the message, not as further arguments of the error, because GLib's D-Bus clients (`gdbus`)
/// show the message of an error only when it is the error's one argument.
public struct KeyFailure: Sendable, Hashable {
    /// The dictionary the key is in, as the interface's reference names it: `notification` (`Post`'s), `options`
    /// (`RegisterCategory`'s, `Act`'s, `TurnOnFocus`'s), `actions[N]` (the N-th action of a list, from 0), `filter`.
    public var place: String
    /// The key, e.g. `app-name`.
    public var key: String
    /// What is wrong with the key's value and what to do, written to follow the key's name: `is -5; use …`.
    public var problem: String

    /// Describes a refused key.
    public init(place: String, key: String, problem: String) {
        self.place = place
        self.key = key
        self.problem = problem
    }

    /// The parts of a received failure, or `nil` when it is not an `InvalidArgument` whose message has the form of
    /// one about a key.
    public init?(_ failure: DBusFailure) {
        guard failure.name == BridgeError.invalidArgument.rawValue else { return nil }
        let message = failure.message
        guard let space = message.firstIndex(of: " "), space != message.startIndex,
            message[space...].hasPrefix(Self.keyWord)
        else { return nil }
        let keyStart = message.index(space, offsetBy: Self.keyWord.count)
        guard let keyEnd = message[keyStart...].firstIndex(of: "'"), keyEnd != keyStart,
            message[keyEnd...].hasPrefix("' "), message.index(keyEnd, offsetBy: 2) < message.endIndex
        else { return nil }
        self.init(
            place: String(message[..<space]), key: String(message[keyStart..<keyEnd]),
            problem: String(message[message.index(keyEnd, offsetBy: 2)...]))
    }

    /// What separates the place from the key in the message.
    private static let keyWord = " key '"

    /// The message: `PLACE key 'KEY' PROBLEM`.
    public var message: String { "\(place) key '\(key)' \(problem)" }

    /// The `InvalidArgument` failure to throw or send, with ``message``.
    public var failure: DBusFailure { BridgeError.invalid(message) }

    /// If `place` is the `index`-th of a list of dictionaries (`actions[1]`), the list's key and the index.
    public var listPlace: (list: String, index: Int)? {
        guard place.hasSuffix("]"), let open = place.lastIndex(of: "["),
            let index = Int(place[place.index(after: open)..<place.index(before: place.endIndex)]), index >= 0
        else { return nil }
        return (String(place[..<open]), index)
    }
}
