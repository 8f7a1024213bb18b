import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// The daemon's policies as plain values, with no bus: the category registry, the history ledger, the do-not-disturb
/// state and the wait for the restore.
@Suite("Policy values")
struct PolicyValueTests {
    static let flatpak = Peer.sandboxed(SandboxedApp(kind: .flatpak, id: "org.example.Chat"))

    static func category(_ id: String, summaryFormat: String? = nil) -> NotificationCategory {
        NotificationCategory(
            id: id, actions: [NotificationAction(id: "done", title: "Done")], summaryFormat: summaryFormat)
    }

    struct LimitRow: Sendable, CustomTestStringConvertible {
        var name: String
        /// Categories registered first: (id, by which connection).
        var registered: [(String, String)]
        var adding: String
        var peer: Peer
        var sender: String
        /// Words the refusal has, or `nil` when the category is taken.
        var refusal: String?
        var testDescription: String { name }
    }

    static let limitRows: [LimitRow] = [
        LimitRow(name: "a first category", registered: [], adding: "a", peer: .host, sender: ":1.1", refusal: nil),
        LimitRow(
            name: "one connection at its limit", registered: (0..<128).map { ("c\($0)", ":1.1") }, adding: "new",
            peer: .host, sender: ":1.1", refusal: "this connection has registered 128 categories"),
        LimitRow(
            name: "another connection beside it", registered: (0..<128).map { ("c\($0)", ":1.1") }, adding: "new",
            peer: .host, sender: ":1.2", refusal: nil),
        LimitRow(
            name: "one at its limit replaces its own", registered: (0..<128).map { ("c\($0)", ":1.1") }, adding: "c5",
            peer: .host, sender: ":1.1", refusal: nil),
        LimitRow(
            name: "a sandboxed app at its limit",
            registered: (0..<32).map { ("org.example.Chat:c\($0)", ":1.\($0 + 10)") },
            adding: "org.example.Chat:new", peer: flatpak, sender: ":1.9", refusal: "the most a sandboxed app may"),
        LimitRow(
            name: "the host beside a sandboxed app at its limit",
            registered: (0..<32).map { ("org.example.Chat:c\($0)", ":1.\($0 + 10)") }, adding: "mine", peer: .host,
            sender: ":1.9", refusal: nil),
    ]

    @Test(
        "the category registry refuses a new category beyond its limits, saying how to free one", arguments: limitRows)
    func categoryLimits(_ row: LimitRow) throws {
        var registry = CategoryRegistry()
        for (id, sender) in row.registered { try registry.register(Self.category(id), by: sender) }
        do {
            try registry.checkLimits(adding: row.adding, by: row.peer, sender: row.sender)
            #expect(row.refusal == nil, "taken, where \(row.refusal ?? "") was expected")
        } catch {
            #expect(error.name == "io.github.NotificationBridge1.Error.LimitExceeded")
            #expect(error.message.contains(row.refusal ?? "no refusal"), "\(error.message)")
            #expect(error.message.contains("RemoveCategory"))
        }
    }

    @Test("a connection that left no longer counts against a connection; its categories stay registered")
    func registrantLeaves() throws {
        var registry = CategoryRegistry()
        for number in 0..<CategoryRegistry.maximumPerConnection {
            try registry.register(Self.category("c\(number)"), by: ":1.1")
        }
        #expect(throws: DBusFailure.self) { try registry.checkLimits(adding: "new", by: .host, sender: ":1.1") }
        registry.connectionLeft(":1.1")
        try registry.checkLimits(adding: "new", by: .host, sender: ":1.1")
        #expect(registry.count == CategoryRegistry.maximumPerConnection)
        registry.remove("c0")
        #expect(registry["c0"] == nil)
        #expect(registry.all.first?.id == "c1", "listed by id")
    }

    @Test("a category that is not valid is not registered, and what was registered stays")
    func invalidCategory() throws {
        var registry = CategoryRegistry()
        try registry.register(Self.category("good"), by: nil)
        #expect(throws: NotificationValidationError.self) {
            try registry.register(NotificationCategory(id: ""), by: ":1.1")
        }
        #expect(registry.all.map(\.id) == ["good"])
    }

    @Test("the history ledger keeps what its bounds keep, by its clock, and remembers answers until recorded anew")
    func historyLedger() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var ledger = HistoryLedger(bounds: HistoryBounds(days: 2, limit: 10), clock: { now })
        #expect(ledger.now == now)
        #expect(ledger.keeps(endedAt: now.addingTimeInterval(-86_400)))
        #expect(!ledger.keeps(endedAt: now.addingTimeInterval(-3 * 86_400)))
        guard case .pruneEnded(let before, let keeping) = ledger.pruning else {
            Issue.record("pruning is \(ledger.pruning)")
            return
        }
        #expect(before == now.addingTimeInterval(-2 * 86_400))
        #expect(keeping == 10)
        #expect(!ledger.wasAnsweredLater("n"))
        ledger.answeredLater("n")
        #expect(ledger.wasAnsweredLater("n"), "a second Act is refused at once")
        ledger.recordedAnew("n")
        #expect(!ledger.wasAnsweredLater("n"), "shown again and ended again, it may be answered again")
    }

    @Test("do-not-disturb state: a reading counts when it changes, held ones in order, one release at a time")
    func doNotDisturbState() {
        var state = DoNotDisturbState()
        #expect(state.desktopIsOn(unread: true), "before the first reading, as the caller takes it")
        #expect(!state.desktopIsOn(unread: false))
        let on = DesktopDoNotDisturb(source: .dunst, isOn: true)
        let firstReading = state.read(on)
        let sameAgain = state.read(on)
        #expect(firstReading)
        #expect(!sameAgain, "the same reading again changes nothing")
        #expect(state.desktopIsOn(unread: false))
        let off = state.read(DesktopDoNotDisturb(source: .dunst, isOn: false))
        #expect(off)
        let orders = [state.takeHeldOrder(), state.takeHeldOrder(), state.takeHeldOrder()]
        #expect(orders == [0, 1, 2])
        let first = state.beginReleasing()
        let second = state.beginReleasing()
        #expect(first)
        #expect(!second, "one run at a time")
        state.endReleasing()
        let afterEnd = state.beginReleasing()
        #expect(afterEnd)
    }

    @Test("the restore barrier holds calls until it opens, then lets every one through")
    func restoreBarrier() async throws {
        let barrier = RestoreBarrier()
        let passed = Task {
            await barrier.wait()
            return true
        }
        #expect(!barrier.isOpened)
        barrier.open()
        let through = try await withTimeout(.seconds(10), waitingFor: "the waiting call to pass") { await passed.value }
        #expect(through)
        await barrier.wait()
        #expect(barrier.isOpened)
    }
}
