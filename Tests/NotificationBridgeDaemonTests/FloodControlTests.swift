import Foundation
import Testing

@testable import NotificationBridgeDaemon

/// Flood control: what is shown and what is folded when an app posts faster than the user's limit.
@Suite("Flood control")
struct FloodControlTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let mail = FloodControl.Source(app: "Mail")

    @Test("200 posts in a second: the first 10 shown, the other 190 folded into one that counts them")
    func twoHundredInASecond() throws {
        var control = try FloodControl(limit: 10, window: .seconds(10))
        let decisions = (0..<200).map { control.admit(Self.mail, at: Self.start.addingTimeInterval(Double($0) / 200)) }
        #expect(decisions.prefix(10).allSatisfy { $0 == .show })
        #expect(decisions.dropFirst(10) == ArraySlice((1...190).map { FloodControl.Decision.fold(count: $0) }))
    }

    @Test("other apps and other threads are counted apart")
    func sourcesApart() throws {
        var control = try FloodControl(limit: 2, window: .seconds(10))
        let ann = FloodControl.Source(app: "Chat", thread: "ann")
        for offset in 0..<5 { _ = control.admit(Self.mail, at: Self.start.addingTimeInterval(Double(offset))) }
        #expect(control.admit(FloodControl.Source(app: "Chat"), at: Self.start) == .show)
        #expect(control.admit(ann, at: Self.start) == .show)
        #expect(control.admit(ann, at: Self.start) == .show)
        #expect(control.admit(ann, at: Self.start) == .fold(count: 1))
        #expect(control.admit(FloodControl.Source(app: "Chat", thread: "bob"), at: Self.start) == .show)
    }

    @Test("a flood lasts while posts keep coming within the window; after a quiet window, posts show again")
    func quietEndsIt() throws {
        var control = try FloodControl(limit: 2, window: .seconds(10))
        let at = { (seconds: Double) in Self.start.addingTimeInterval(seconds) }
        #expect(control.admit(Self.mail, at: at(0)) == .show)
        #expect(control.admit(Self.mail, at: at(1)) == .show)
        #expect(control.admit(Self.mail, at: at(2)) == .fold(count: 1))
        // Under the limit within the window now, but the flood goes on until a window passes without a post.
        #expect(control.admit(Self.mail, at: at(11.5)) == .fold(count: 2))
        #expect(control.admit(Self.mail, at: at(30)) == .show)
        #expect(control.admit(Self.mail, at: at(31)) == .show)
    }

    @Test("a limit under 1 or an empty window is refused, saying what to give")
    func refusals() {
        #expect(FocusScheduleTests.message { try FloodControl(limit: 0, window: .seconds(10)) }.contains("1 or more"))
        #expect(FocusScheduleTests.message { try FloodControl(limit: 5, window: .zero) }.contains("such as 10s"))
    }
}
