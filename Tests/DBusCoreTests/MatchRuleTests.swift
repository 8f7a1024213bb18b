import DBusCore
import DBusTestSupport
import Testing

/// Each subscription receives exactly the signals its rule describes, even when many share one connection.
@Suite struct MatchRuleTests {
    static let interfaceName = "org.example.Rules"
    static let path: DBusObjectPath = "/org/example/Rules"
    static let senderName = "org.example.Sender"

    /// Emits a signal whose fields are the base values unless given.
    static func emit(
        from connection: DBusConnection, path: DBusObjectPath = path, interface: String = interfaceName,
        member: String = "Base", arg0: DBusValue = .string("base")
    ) throws {
        try connection.emit(path: path, interface: interface, member: member, arguments: [arg0])
    }

    @Test func ruleOnEachFieldGetsOnlyItsSignals() async throws {
        try await withPrivateBus { bus in
            let emitter = try await bus.connect()
            let receiver = try await bus.connect()
            let byPath = try await receiver.signals(matching: DBusMatchRule(path: "/org/example/P"))
            let byInterface = try await receiver.signals(matching: DBusMatchRule(interface: "org.example.I"))
            let byMember = try await receiver.signals(matching: DBusMatchRule(member: "M"))
            let byArg0 = try await receiver.signals(matching: DBusMatchRule(arg0: "key"))
            let everything = try await receiver.signals(matching: DBusMatchRule(sender: emitter.uniqueName))

            try Self.emit(from: emitter, path: "/org/example/P")
            try Self.emit(from: emitter, interface: "org.example.I")
            try Self.emit(from: emitter, member: "M")
            try Self.emit(from: emitter, arg0: .string("key"))
            try Self.emit(from: emitter, arg0: .objectPath("/key"))
            try Self.emit(from: emitter)
            // Matches every rule: the last signal each subscription receives.
            try Self.emit(
                from: emitter, path: "/org/example/P", interface: "org.example.I", member: "M",
                arg0: .string("key"))

            func received(_ stream: AsyncStream<DBusSignal>, _ what: String) async throws -> [DBusSignal] {
                try await stream.collect(2, waitingFor: "signals matching the \(what) rule")
            }
            #expect(try await received(byPath, "path").map(\.path) == ["/org/example/P", "/org/example/P"])
            #expect(
                try await received(byInterface, "interface").map(\.interface) == ["org.example.I", "org.example.I"])
            #expect(try await received(byMember, "member").map(\.member) == ["M", "M"])
            #expect(try await received(byArg0, "arg0").map(\.arguments) == [[.string("key")], [.string("key")]])
            let all = try await everything.collect(7, waitingFor: "every signal of the emitter")
            #expect(all.map(\.member) == ["Base", "Base", "M", "Base", "Base", "Base", "M"])
        }
    }

    @Test func ruleOnAUniqueNameIgnoresOtherSenders() async throws {
        try await withPrivateBus { bus in
            let wanted = try await bus.connect()
            let other = try await bus.connect()
            let receiver = try await bus.connect()
            let signals = try await receiver.signals(matching: DBusMatchRule(sender: wanted.uniqueName))

            try Self.emit(from: other, arg0: .string("other"))
            // Once the bus answers this, it has passed the other signal on: had it matched, it would come first.
            try await other.flush()
            try Self.emit(from: wanted, arg0: .string("wanted"))

            let signal = try await signals.first(waitingFor: "the signal of the wanted sender")
            #expect(signal.sender == wanted.uniqueName)
            #expect(signal.arguments == [.string("wanted")])
        }
    }

    @Test func ruleOnAWellKnownNameFollowsItToANewOwner() async throws {
        try await withPrivateBus { bus in
            let firstOwner = try await bus.connect()
            let secondOwner = try await bus.connect()
            let receiver = try await bus.connect()
            #expect(try await firstOwner.requestName(Self.senderName) == .primaryOwner)
            #expect(try await secondOwner.requestName(Self.senderName) == .inQueue)
            let signals = try await receiver.signals(
                matching: DBusMatchRule(sender: Self.senderName, interface: Self.interfaceName))

            try Self.emit(from: secondOwner, arg0: .string("not yet the owner"))
            try await secondOwner.flush()
            try Self.emit(from: firstOwner, arg0: .string("first"))
            let first = try await signals.first(waitingFor: "the signal of the first owner")
            #expect(first.sender == firstOwner.uniqueName)
            #expect(first.arguments == [.string("first")])

            // Releasing hands the name to the connection waiting in the queue.
            #expect(try await firstOwner.releaseName(Self.senderName) == .released)
            try Self.emit(from: firstOwner, arg0: .string("no longer the owner"))
            try await firstOwner.flush()
            try Self.emit(from: secondOwner, arg0: .string("second"))
            let second = try await signals.first(waitingFor: "the signal of the new owner")
            #expect(second.sender == secondOwner.uniqueName)
            #expect(second.arguments == [.string("second")])
        }
    }

    @Test func ruleOnAWellKnownNameMatchesNothingWhileNobodyOwnsIt() async throws {
        try await withPrivateBus { bus in
            let emitter = try await bus.connect()
            let receiver = try await bus.connect()
            let signals = try await receiver.signals(
                matching: DBusMatchRule(sender: Self.senderName, interface: Self.interfaceName))

            try Self.emit(from: emitter, arg0: .string("before owning"))
            try await emitter.flush()
            _ = try await emitter.requestName(Self.senderName)
            try Self.emit(from: emitter, arg0: .string("owner"))

            let signal = try await signals.first(waitingFor: "the signal sent as the owner")
            #expect(signal.arguments == [.string("owner")])
        }
    }

    @Test func arg0WithAQuoteIsMatchedExactly() async throws {
        try await withPrivateBus { bus in
            let emitter = try await bus.connect()
            let receiver = try await bus.connect()
            let rule = DBusMatchRule(interface: Self.interfaceName, arg0: "it's")
            #expect(rule.description == #"type='signal',interface='org.example.Rules',arg0='it'\''s'"#)
            let signals = try await receiver.signals(matching: rule)

            try Self.emit(from: emitter, arg0: .string("its"))
            try Self.emit(from: emitter, arg0: .string("it's"))
            let signal = try await signals.first(waitingFor: "the signal whose arg0 holds a quote")
            #expect(signal.arguments == [.string("it's")])
        }
    }

    @Test func ruleTextListsEveryFieldInOrder() {
        let rule = DBusMatchRule(
            sender: ":1.7", path: "/a/b", interface: "org.example.I", member: "Changed", arg0: "first")
        #expect(
            rule.description
                == "type='signal',sender=':1.7',path='/a/b',interface='org.example.I',member='Changed',arg0='first'")
        #expect(DBusMatchRule().description == "type='signal'")
    }
}
