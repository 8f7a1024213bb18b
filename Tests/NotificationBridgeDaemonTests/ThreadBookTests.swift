import Foundation
import Testing

@testable import NotificationBridgeDaemon

/// The bookkeeping of threads, with no bus: who is newest, who comes back, what a long thread lets go of.
@Suite("Thread book")
struct ThreadBookTests {
    static let ann = ThreadBook.Key(app: "org.example.Chat", thread: "ann")
    static let bob = ThreadBook.Key(app: "org.example.Chat", thread: "bob")

    @Test("each new notification is the newest; leaving the newest makes the one before newest")
    func newestAndBack() {
        var book = ThreadBook()
        #expect(book.join("a", Self.ann).previous == nil)
        #expect(book.join("b", Self.ann).previous == "a")
        #expect(book.join("x", Self.bob).previous == nil, "another thread is apart")
        #expect(book.join("a", Self.ann).previous == nil, "one already in it keeps its place")
        #expect(book.members(of: Self.ann) == ["a", "b"])
        let left = book.leave("b")
        #expect(left?.key == Self.ann)
        #expect(left?.wasNewest == true)
        #expect(book.newest(of: Self.ann) == "a")
        #expect(book.leave("b") == nil)
        #expect(book.removeAll(Self.ann) == ["a"])
        #expect(book.key(of: "a") == nil)
        #expect(book.count == 1)
    }

    @Test("a thread keeps at most its limit: the oldest goes, and the summary goes on counting it")
    func longThread() {
        var book = ThreadBook()
        var letGo: [String] = []
        for number in 0...ThreadBook.maximumMembers {
            if let gone = book.join("n\(number)", Self.ann, countOfOldest: { _ in 2 }).letGo { letGo.append(gone) }
        }
        #expect(letGo == ["n0"])
        #expect(book.members(of: Self.ann).count == ThreadBook.maximumMembers)
        #expect(book.key(of: "n0") == nil)
        #expect(book.countLetGo(of: Self.ann) == 2)
        _ = book.removeAll(Self.ann)
        #expect(book.countLetGo(of: Self.ann) == 0)
    }

    @Test("a book rebuilt from the places its members had is the book it was, and later joins come after them")
    func rebuiltFromPlaces() {
        var before = ThreadBook()
        for id in ["a", "b", "c", "d"] { _ = before.join(id, Self.ann) }
        _ = before.join("x", Self.bob)
        before.leave("b")
        let kept = ["d", "x", "a", "c"].map { ($0, before.place(of: $0)!, before.key(of: $0)!) }
        #expect(before.place(of: "b") == nil, "one that left has no place")

        // Brought back in any order: sorted by their places, as a restart does.
        var after = ThreadBook()
        for (id, place, key) in kept.sorted(by: { $0.1 < $1.1 }) { _ = after.join(id, key, at: place) }
        after.restoreLetGo(3, of: Self.ann)
        #expect(after.members(of: Self.ann) == ["a", "c", "d"])
        #expect(after.members(of: Self.bob) == ["x"])
        #expect(after.countLetGo(of: Self.ann) == 3)
        #expect(after.join("e", Self.ann).previous == "d")
        #expect(after.place(of: "e")! > after.place(of: "x")!, "a new one comes after every restored one")
        after.restoreLetGo(5, of: ThreadBook.Key(app: "org.example.Chat", thread: "gone"))
        #expect(after.countLetGo(of: ThreadBook.Key(app: "org.example.Chat", thread: "gone")) == 0)
    }
}

extension ThreadBookTests {
    @Test(
        "the manual and the README give the number of notifications a thread keeps as the code's",
        arguments: ["man/notification-bridge-dbus.7", "README.md"])
    func documentedLimitIsTheCodes(file: String) throws {
        let text = try String(contentsOf: PackageFiles.root.appendingPathComponent(file), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        #expect(
            text.contains("A thread keeps at most \(ThreadBook.maximumMembers) notifications"),
            "\(file) says how many notifications a thread keeps, and that number is ThreadBook.maximumMembers")
    }
}
