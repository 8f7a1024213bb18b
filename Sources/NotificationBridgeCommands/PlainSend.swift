import DBusCore
import NotificationBridgeAPI

/// `send TITLE [BODY]` with no option: the commonest command line, read without ArgumentParser.
///
/// ArgumentParser builds a command by reflecting over its options, and `send` has about thirty: that, with the
/// protocol-conformance lookups it makes, is about a third of the CPU time of `notification-bridge send Title Body`,
/// more than the rest of the command's own work. A command line of one or two plain words after an optional `send`
/// can mean nothing but a title and a body, so it is read here; anything else (an option, `--`, a word that names a
/// subcommand or `help`) goes to the tree, whose help, errors and completions stay the only ones.
struct PlainSend: Equatable {
    let title: String
    let body: String?

    /// `arguments` (without the program's name) as a plain `send`; `nil` for anything the tree must parse.
    init?(_ arguments: [String]) {
        let named = arguments.first == SendCommand.configuration.commandName
        let words = arguments.dropFirst(named ? 1 : 0)
        guard (1...2).contains(words.count), let first = words.first,
            words.allSatisfy({ !$0.hasPrefix("-") && $0 != "help" }),
            // Without `send` before it, a subcommand's name is that subcommand.
            named || NotificationBridgeCommand.subcommandNamed(first) == nil
        else { return nil }
        title = first
        body = words.dropFirst().first
    }

    /// The `Post` request: the `a{sv}` that ``SendCommand/request()`` makes of the same words, built as the list of
    /// entries it is (sorted by key, as ``WireEntries/value`` sorts them). A `WireEntries`, a dictionary, would have
    /// the Swift runtime look up `String`'s `Hashable` conformance among all of the program's, once per process: about
    /// a twentieth of the instructions of the whole command.
    var request: DBusValue {
        var entries = [(PostKeys.title.name, title)]
        if let body { entries.append((PostKeys.body.name, body)) }
        entries.sort { $0.0 < $1.0 }
        return .dictionary(
            key: "s", value: "v",
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant(.string($0.1))) })
    }

    /// Posts it with one call made on this thread, on a connection of its own
    /// (``DBusConnection/callOnce(on:destination:path:interface:method:arguments:timeout:)``): the whole command is
    /// this call, so it starts neither the connection's thread nor an executor, whose start and hand-offs took about
    /// 0.4 ms of the command's 6 ms.
    ///
    /// - Throws: ``CLIFailure``, with the line ``SendCommand`` gives for the same failure.
    func post() throws {
        do {
            _ = try DBusConnection.callOnce(
                on: BridgeClient.bus, destination: BridgeAPI.busName, path: BridgeAPI.objectPath,
                interface: BridgeAPI.interfaceName,
                method: BridgeMethod.post.name, arguments: [request], timeout: BridgeProxy.defaultTimeout)
        } catch .cannotConnect(let failure) {
            throw BridgeClient.cannotConnect(failure)
        } catch .failed(let failure) {
            throw BridgeClient.failure(failure)
        }
    }
}
