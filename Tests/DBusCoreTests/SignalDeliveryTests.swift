import DBusCore
import DBusTestSupport
import Testing

/// Signals from one connection to another: all of them, in order, to the right connection, for as long as someone
/// listens.
@Suite struct SignalDeliveryTests {
    static let interfaceName = "org.example.Signals"
    static let path: DBusObjectPath = "/org/example/Signals"

    /// Starts a private bus and runs `body` with an emitting and a receiving connection.
    static func withEmitterAndReceiver(
        _ body: (PrivateBus, _ emitter: DBusConnection, _ receiver: DBusConnection) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            try await body(bus, try await bus.connect(), try await bus.connect())
        }
    }

    @Test func tenThousandSignalsArriveInOrderWithNoneLost() async throws {
        try await Self.withEmitterAndReceiver { _, emitter, receiver in
            let count = 10_000
            let ticks = try await receiver.signals(
                matching: DBusMatchRule(sender: emitter.uniqueName, interface: Self.interfaceName, member: "Tick"))
            for index in 0..<count {
                try emitter.emit(
                    path: Self.path, interface: Self.interfaceName, member: "Tick", arguments: [.uint32(UInt32(index))])
            }
            let received = try await ticks.collect(count, within: .seconds(30), waitingFor: "Tick signals")
            let numbers = received.map { $0.arguments.first.flatMap { try? UInt32(dbusValue: $0) } }
            #expect(numbers == (0..<count).map { UInt32($0) })
        }
    }

    @Test func signalCarriesWhereItCameFromAndItsArguments() async throws {
        try await Self.withEmitterAndReceiver { _, emitter, receiver in
            let signals = try await receiver.signals(matching: DBusMatchRule(interface: Self.interfaceName))
            let arguments: [DBusValue] = [.string("text"), .vardict(["n": .int32(1)]), .strings([])]
            try emitter.emit(path: Self.path, interface: Self.interfaceName, member: "Changed", arguments: arguments)
            let signal = try await signals.first(waitingFor: "the Changed signal")
            #expect(signal.sender == emitter.uniqueName)
            #expect(signal.path == Self.path)
            #expect(signal.interface == Self.interfaceName)
            #expect(signal.member == "Changed")
            #expect(signal.arguments == arguments)
            #expect(signal.destination == nil)
        }
    }

    @Test func signalToOneDestinationReachesOnlyThatConnection() async throws {
        try await Self.withEmitterAndReceiver { bus, emitter, receiver in
            let bystander = try await bus.connect()
            let rule = DBusMatchRule(interface: Self.interfaceName)
            let received = try await receiver.signals(matching: rule)
            let overheard = try await bystander.signals(matching: rule)

            try emitter.emit(
                path: Self.path, interface: Self.interfaceName, member: "Private", arguments: [.string("for you")],
                destination: receiver.uniqueName)
            try emitter.emit(path: Self.path, interface: Self.interfaceName, member: "Public")

            let forReceiver = try await received.collect(2, waitingFor: "the private and the public signal")
            #expect(forReceiver.map(\.member) == ["Private", "Public"])
            #expect(forReceiver.first?.destination == receiver.uniqueName)
            // Signals from one sender arrive in order, so the private one would have come first.
            let forBystander = try await overheard.first(waitingFor: "the public signal")
            #expect(forBystander.member == "Public")
        }
    }

    @Test func everySubscriptionToTheSameSignalGetsIt() async throws {
        try await Self.withEmitterAndReceiver { _, emitter, receiver in
            let rule = DBusMatchRule(interface: Self.interfaceName, member: "Changed")
            let first = try await receiver.signals(matching: rule)
            let second = try await receiver.signals(matching: rule)
            try emitter.emit(path: Self.path, interface: Self.interfaceName, member: "Changed")
            #expect(try await first.first(waitingFor: "the signal on the first subscription").member == "Changed")
            #expect(try await second.first(waitingFor: "the signal on the second subscription").member == "Changed")
        }
    }

    @Test func endingIterationRemovesTheSubscription() async throws {
        try await Self.withEmitterAndReceiver { _, emitter, receiver in
            let rule = DBusMatchRule(interface: Self.interfaceName, member: "Changed")
            let kept = try await receiver.signals(matching: DBusMatchRule(interface: Self.interfaceName))
            let signals = try await receiver.signals(matching: rule)
            #expect(try await MessageBus.matchRules(of: receiver, askingWith: emitter).contains(rule.description))

            let listener = Task {
                for await _ in signals {}
            }
            listener.cancel()
            try await awaitWithin(waitingFor: "the listener to stop") { await listener.value }
            // The bus handles the connection's messages in order: once this round trip is answered, the rule is gone.
            try await receiver.flush()
            let rules = try await MessageBus.matchRules(of: receiver, askingWith: emitter)
            #expect(!rules.contains(rule.description))
            #expect(rules.contains(DBusMatchRule(interface: Self.interfaceName).description))

            // The other subscription still works.
            try emitter.emit(path: Self.path, interface: Self.interfaceName, member: "Changed")
            #expect(try await kept.first(waitingFor: "the signal on the kept subscription").member == "Changed")
        }
    }

    @Test func droppingTheStreamRemovesTheSubscription() async throws {
        try await Self.withEmitterAndReceiver { _, emitter, receiver in
            let rule = DBusMatchRule(interface: Self.interfaceName, member: "Dropped")
            do {
                let signals = try await receiver.signals(matching: rule)
                _ = signals
            }
            try await receiver.flush()
            #expect(!(try await MessageBus.matchRules(of: receiver, askingWith: emitter)).contains(rule.description))
        }
    }

    @Test func invalidRuleIsRefused() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let rules = [
                DBusMatchRule(sender: "not a name"), DBusMatchRule(interface: "nodots"),
                DBusMatchRule(member: "has.dot"), DBusMatchRule(arg0: "nul\0"),
            ]
            for rule in rules {
                let failure = try await #require(throws: DBusFailure.self) {
                    _ = try await connection.signals(matching: rule)
                }
                #expect(failure.name == DBusFailure.Name.invalidArgs)
            }
        }
    }

    @Test func invalidSignalIsRefused() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            #expect(throws: DBusFailure.self) {
                try connection.emit(path: Self.path, interface: "nodots", member: "Changed")
            }
            #expect(throws: DBusFailure.self) {
                try connection.emit(path: Self.path, interface: Self.interfaceName, member: "1x")
            }
            #expect(throws: DBusFailure.self) {
                try connection.emit(
                    path: Self.path, interface: Self.interfaceName, member: "Changed", arguments: [.string("\0")])
            }
            #expect(throws: DBusFailure.self) {
                try connection.emit(
                    path: Self.path, interface: Self.interfaceName, member: "Changed", destination: "bad name")
            }
        }
    }
}
