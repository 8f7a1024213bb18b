import Foundation
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// Flood control: what is shown and what is folded when an app posts faster than the user's limit.
@Suite("Flood control")
struct FloodControlTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let mail = FloodControl.Source(app: "Mail")
    static let tenInTen = try! FloodLimit(count: 10, window: .seconds(10))
    static let twoInTen = try! FloodLimit(count: 2, window: .seconds(10))

    @Test("200 posts in a second: the first 10 shown, the other 190 folded into one that counts them")
    func twoHundredInASecond() {
        var control = FloodControl()
        let decisions = (0..<200).map {
            control.admit(Self.mail, at: Self.start.addingTimeInterval(Double($0) / 200), limit: Self.tenInTen)
        }
        #expect(decisions.prefix(10).allSatisfy { $0 == .show })
        #expect(decisions.dropFirst(10) == ArraySlice((1...190).map { FloodControl.Decision.fold(count: $0) }))
    }

    @Test("other apps and other threads are counted apart")
    func sourcesApart() {
        var control = FloodControl()
        let ann = FloodControl.Source(app: "Chat", thread: "ann")
        for offset in 0..<5 {
            _ = control.admit(Self.mail, at: Self.start.addingTimeInterval(Double(offset)), limit: Self.twoInTen)
        }
        #expect(control.admit(FloodControl.Source(app: "Chat"), at: Self.start, limit: Self.twoInTen) == .show)
        #expect(control.admit(ann, at: Self.start, limit: Self.twoInTen) == .show)
        #expect(control.admit(ann, at: Self.start, limit: Self.twoInTen) == .show)
        #expect(control.admit(ann, at: Self.start, limit: Self.twoInTen) == .fold(count: 1))
        let bob = FloodControl.Source(app: "Chat", thread: "bob")
        #expect(control.admit(bob, at: Self.start, limit: Self.twoInTen) == .show)
    }

    /// The decisions for posts at these offsets in seconds, under 2 within 10 s, with `foldEndsAt` the offsets at
    /// which the fold left the screen just before the post.
    @Test(
        "a flood lasts while posts come within the window, a quiet window ends it, a new fold counts from 1",
        arguments: [
            ([0, 1, 2], [], [FloodControl.Decision.show, .show, .fold(count: 1)]),
            // Under the limit within the window now, but the flood goes on until a window passes without a post.
            ([0, 1, 2, 11.5, 30, 31], [], [.show, .show, .fold(count: 1), .fold(count: 2), .show, .show]),
            // Two in each window, never more: no flood.
            ([0, 1, 10, 11, 20, 21], [], [.show, .show, .show, .show, .show, .show]),
            // The user closed the fold before the fourth post: it starts a new fold.
            ([0, 0, 0, 0, 0], [3], [.show, .show, .fold(count: 1), .fold(count: 1), .fold(count: 2)]),
        ] as [([Double], [Int], [FloodControl.Decision])])
    func table(offsets: [Double], foldEndsAt: [Int], expected: [FloodControl.Decision]) {
        var control = FloodControl()
        var decisions: [FloodControl.Decision] = []
        for (index, offset) in offsets.enumerated() {
            if foldEndsAt.contains(index) { control.foldEnded(Self.mail) }
            decisions.append(
                control.admit(Self.mail, at: Self.start.addingTimeInterval(offset), limit: Self.twoInTen))
        }
        #expect(decisions == expected)
    }

    @Test("each app's own limit counts: a tighter one folds sooner")
    func perAppLimit() throws {
        var control = FloodControl()
        let chat = FloodControl.Source(app: "Chat")
        let oneInAMinute = try FloodLimit(count: 1, window: .seconds(60))
        let mail = (0..<3).map { _ in control.admit(Self.mail, at: Self.start, limit: Self.twoInTen) }
        let chats = (0..<3).map {
            control.admit(chat, at: Self.start.addingTimeInterval(Double($0) * 20), limit: oneInAMinute)
        }
        #expect(mail == [.show, .show, .fold(count: 1)])
        #expect(chats == [.show, .fold(count: 1), .fold(count: 2)])
    }

    @Test(
        "a flood limit is written N/Ts, N/Tm or off, and a wrong one says how to write it",
        arguments: [
            ("10/10s", "10/10s"), ("30/1m", "30/1m"), ("5/120s", "5/2m"), ("off", "off"),
        ])
    func written(text: String, readBack: String) throws {
        #expect(try FloodLimit.parse(text).description == readBack)
    }

    @Test("a limit under 1, an empty window or a limit that cannot be read is refused, saying what to give")
    func refusals() {
        func message(_ text: String) -> String {
            do {
                _ = try FloodLimit.parse(text)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(message("0/10s").contains("1 or more"))
        #expect(message("5/0s").contains("such as 10s"))
        #expect(message("ten").contains("such as '10/10s'"))
        #expect(message("10/10h").contains("neither s nor m"))
        #expect(FloodLimit.off.isOff && !FloodLimit.suggested.isOff)
    }
}
