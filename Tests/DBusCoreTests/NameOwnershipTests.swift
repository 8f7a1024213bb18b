import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// Owning well-known names, queueing for them, and watching who owns them.
@Suite struct NameOwnershipTests {
    static let name = "org.example.Owned"

    @Test func firstRequestOwnsTheNameAndOthersQueueOrGiveUp() async throws {
        try await withPrivateBus { bus in
            let owner = try await bus.connect()
            let impatient = try await bus.connect()
            let patient = try await bus.connect()

            #expect(try await owner.requestName(Self.name) == .primaryOwner)
            #expect(try await owner.requestName(Self.name) == .alreadyOwner)
            #expect(try await impatient.requestName(Self.name, flags: .doNotQueue) == .exists)
            #expect(try await patient.requestName(Self.name) == .inQueue)
            #expect(try await owner.nameOwner(of: Self.name) == owner.uniqueName)

            let patientEvents = try await patient.nameEvents()
            #expect(try await impatient.releaseName(Self.name) == .notOwner)
            #expect(try await owner.releaseName(Self.name) == .released)
            #expect(
                try await patientEvents.first(waitingFor: "the queued connection to get the name")
                    == .acquired(Self.name))
            #expect(try await owner.nameOwner(of: Self.name) == patient.uniqueName)
            #expect(try await owner.releaseName("org.example.NeverOwned") == .nonExistent)
        }
    }

    @Test func nameEventsReportAcquiringAndLosing() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let events = try await connection.nameEvents()
            _ = try await connection.requestName(Self.name)
            _ = try await connection.requestName("org.example.Second")
            try await connection.releaseName(Self.name)
            let received = try await events.collect(3, waitingFor: "name events")
            #expect(received == [.acquired(Self.name), .acquired("org.example.Second"), .lost(Self.name)])
        }
    }

    @Test func replacingAnOwnerThatAllowsItMovesTheName() async throws {
        try await withPrivateBus { bus in
            let first = try await bus.connect()
            let second = try await bus.connect()
            let firstEvents = try await first.nameEvents()
            let secondEvents = try await second.nameEvents()

            #expect(try await first.requestName(Self.name, flags: [.allowReplacement, .doNotQueue]) == .primaryOwner)
            #expect(try await second.requestName(Self.name, flags: .replaceExisting) == .primaryOwner)

            #expect(
                try await firstEvents.collect(2, waitingFor: "the first owner's events")
                    == [.acquired(Self.name), .lost(Self.name)])
            #expect(try await secondEvents.first(waitingFor: "the second owner's event") == .acquired(Self.name))
            #expect(try await first.nameOwner(of: Self.name) == second.uniqueName)
        }
    }

    @Test func ownerChangesAreReportedUntilTheNameIsFree() async throws {
        try await withPrivateBus { bus in
            let watcher = try await bus.connect()
            let first = try await bus.connect()
            let second = try await bus.connect()
            let changes = try await watcher.nameOwnerChanges(of: Self.name)
            #expect(try await watcher.nameOwner(of: Self.name) == nil)
            #expect(try await watcher.nameHasOwner(Self.name) == false)

            _ = try await first.requestName(Self.name)
            _ = try await second.requestName(Self.name)
            try await first.releaseName(Self.name)
            try await awaitWithin(waitingFor: "the second owner to close") { await second.close() }

            let owners = try await changes.collect(3, waitingFor: "owner changes")
            #expect(owners == [first.uniqueName, second.uniqueName, nil])
            #expect(try await watcher.nameOwner(of: Self.name) == nil)
        }
    }

    @Test func processIDIsTheProcessThatOwnsTheConnection() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let other = try await bus.connect()
            _ = try await connection.requestName(Self.name)
            #expect(try await other.processID(of: connection.uniqueName) == UInt32(getpid()))
            #expect(try await other.processID(of: Self.name) == UInt32(getpid()))

            let failure = try await #require(throws: DBusFailure.self) {
                try await other.processID(of: "org.example.Nobody")
            }
            #expect(failure.name == DBusFailure.Name.nameHasNoOwner)
        }
    }

    @Test func invalidNamesAreRefused() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            for name in ["", "no-dots", "org..example", ":1"] {
                await #expect(throws: DBusFailure.self) { try await connection.requestName(name) }
                await #expect(throws: DBusFailure.self) { try await connection.nameOwner(of: name) }
                await #expect(throws: DBusFailure.self) { try await connection.nameOwnerChanges(of: name) }
            }
        }
    }
}
