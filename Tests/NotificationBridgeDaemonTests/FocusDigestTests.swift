import Testing

@testable import NotificationBridgeDaemon

/// The digest a focus mode leaves when it ends: one notification that counts what it held, by app and by thread.
@Suite("The digest of a focus mode")
struct FocusDigestTests {
    typealias Held = FocusDigest.Held

    @Test("100 held notifications of three apps: one digest with the counts, most first, and the threads named")
    func hundredOfThreeApps() throws {
        let held =
            Array(repeating: Held(app: "Mail"), count: 60)
            + Array(repeating: Held(app: "Chat", threadLabel: "Ann"), count: 25)
            + Array(repeating: Held(app: "Chat", threadLabel: "Bob"), count: 5)
            + Array(repeating: Held(app: "Calendar"), count: 10)
        let digest = try #require(FocusDigest(mode: "Sleep", held: held.shuffled()))
        #expect(digest.title == "100 while Sleep was on")
        #expect(digest.body == "Mail 60, Chat 30, Calendar 10, 25 from Ann, 5 from Bob")
    }

    @Test("the example of a night: Mail 9, Chat 5, 2 from Ann")
    func example() throws {
        let held =
            Array(repeating: Held(app: "Mail"), count: 9) + Array(repeating: Held(app: "Chat"), count: 3)
            + Array(repeating: Held(app: "Chat", threadLabel: "Ann"), count: 2)
        let digest = try #require(FocusDigest(mode: "Sleep", held: held))
        #expect("\(digest.title): \(digest.body)" == "14 while Sleep was on: Mail 9, Chat 5, 2 from Ann")
    }

    @Test("ties are by name; at most three threads are named, the others counted in their apps")
    func tiesAndLimit() throws {
        let held = ["Dan", "Cy", "Bea", "Al"].map { Held(app: "Chat", threadLabel: $0) } + [Held(app: "Alarm")]
        let digest = try #require(FocusDigest(mode: "Work", held: held))
        #expect(digest.body == "Chat 4, Alarm 1, 1 from Al, 1 from Bea, 1 from Cy")
    }

    @Test("nothing held, no digest")
    func empty() {
        #expect(FocusDigest(mode: "Sleep", held: []) == nil)
    }

    @Test("a click on the digest's body shows them all; the server's own dismissal is no action of the digest")
    func actions() {
        #expect(FocusDigest.Action(actionID: "default") == .showAll)
        #expect(FocusDigest.Action(actionID: "dismiss-all") == .dismiss)
        #expect(FocusDigest.Action(actionID: "history") == .history)
        #expect(FocusDigest.Action(actionID: "dismiss") == nil, "closing the digest leaves what it held listed")
    }
}
