import DBusTestSupport
import Foundation
import Testing

@testable import NotificationScheduling

@Suite("The schedule queue")
struct ScheduleQueueTests {
    @Test("10,000 random entries with random removals come out in fire-date order")
    func randomOrder() {
        var random = SeededGenerator(seed: 42)
        var queue = ScheduleQueue<Int>()
        var expected: [String: Date] = [:]
        for index in 0..<10_000 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<1_000_000, using: &random)))
            queue.insert(id: "n\(index)", fireDate: date, value: index)
            expected["n\(index)"] = date
        }
        // Remove a third at random, and move a few hundred to new dates.
        for index in (0..<10_000).shuffled(using: &random).prefix(3_333) {
            #expect(queue.remove(id: "n\(index)")?.value == index)
            expected["n\(index)"] = nil
        }
        for id in expected.keys.sorted().prefix(500) {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<1_000_000, using: &random)))
            queue.insert(id: id, fireDate: date, value: -1)
            expected[id] = date
        }
        #expect(queue.checkInvariants())
        #expect(queue.count == expected.count)
        #expect(queue.remove(id: "n-missing") == nil)

        var popped: [ScheduleQueue<Int>.Entry] = []
        while let entry = queue.popFirst() { popped.append(entry) }
        #expect(popped.count == expected.count)
        #expect(zip(popped, popped.dropFirst()).allSatisfy { $0.fireDate <= $1.fireDate })
        #expect(Dictionary(uniqueKeysWithValues: popped.map { ($0.id, $0.fireDate) }) == expected)
    }

    @Test("equal fire dates come out in insertion order, and replacing an entry moves it to the back")
    func ties() {
        var queue = ScheduleQueue<String>()
        let date = Date(timeIntervalSince1970: 100)
        for id in ["a", "b", "c"] { queue.insert(id: id, fireDate: date, value: id) }
        let replaced = queue.insert(id: "a", fireDate: date, value: "a2")
        #expect(replaced?.value == "a")
        #expect(queue.popDue(now: date).map(\.value) == ["b", "c", "a2"])
    }

    @Test("popDue takes exactly the entries at or before now, earliest first")
    func popDue() {
        var queue = ScheduleQueue<Int>()
        for seconds in [50, 10, 30, 20, 40] {
            queue.insert(id: "\(seconds)", fireDate: Date(timeIntervalSince1970: Double(seconds)), value: seconds)
        }
        #expect(queue.popDue(now: Date(timeIntervalSince1970: 5)).isEmpty)
        #expect(queue.popDue(now: Date(timeIntervalSince1970: 30)).map(\.value) == [10, 20, 30])
        #expect(queue.peek()?.value == 40)
        #expect(queue["50"]?.fireDate == Date(timeIntervalSince1970: 50))
        #expect(queue.removeAll { $0.value > 45 }.map(\.value) == [50])
        #expect(queue.count == 1 && queue.checkInvariants())
    }

    // How fast they are is measured by `make bench` (a scheduled Post with 10,000 pending), not asserted here: the
    // machines that run the tests are shared and noisy.
    @Test("10,000 inserts, then 10,000 removals by id, give back each value and leave the heap whole and empty")
    func manyInsertsAndRemovalsByID() {
        var random = SeededGenerator(seed: 7)
        var queue = ScheduleQueue<Int>()
        for index in 0..<10_000 {
            queue.insert(
                id: "n\(index)", fireDate: Date(timeIntervalSince1970: Double(random.next() % 1_000_000)), value: index)
        }
        #expect(queue.count == 10_000 && queue.checkInvariants())
        for index in 0..<10_000 {
            #expect(queue.remove(id: "n\(index)")?.value == index)
        }
        #expect(queue.isEmpty && queue.checkInvariants())
    }

    @Test("asked for room one entry at a time, as each scheduled Post asks, the queue grows by doubling, not by one")
    func roomOneAtATime() {
        var queue = ScheduleQueue<Int>()
        var capacities: Set<Int> = []
        for index in 0..<10_000 {
            queue.reserveCapacity(queue.count + 1)
            queue.insert(id: "n\(index)", fireDate: Date(timeIntervalSince1970: Double(index)), value: index)
            capacities.insert(queue.capacity)
        }
        // Doubling up to 10,000 takes 14 sizes; growing to the size asked for, each a copy of the whole queue, 10,000.
        #expect(capacities.count <= 20, "the queue took \(capacities.count) sizes on its way to 10,000 entries")
        #expect(queue.count == 10_000 && queue.checkInvariants())
    }

    @Test(
        "many changes at once leave what one by one would (ids repeated, removals, ties, entries already queued)",
        arguments: [0, 300, 5_000])
    func changesAtOnce(alreadyQueued: Int) {
        var random = SeededGenerator(seed: UInt64(alreadyQueued) + 3)
        var atOnce = ScheduleQueue<Int>()
        var oneByOne = ScheduleQueue<Int>()
        for index in 0..<alreadyQueued {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<500, using: &random)))
            atOnce.insert(id: "n\(index)", fireDate: date, value: index)
            oneByOne.insert(id: "n\(index)", fireDate: date, value: index)
        }
        // Few distinct dates, so that ties are common; ids drawn from a range that overlaps what is queued and repeats.
        let changes: [(id: String, entry: (fireDate: Date, value: Int)?)] = (0..<4_000).map { value in
            let id = "n\(Int.random(in: 0..<6_000, using: &random))"
            guard Int.random(in: 0..<5, using: &random) > 0 else { return (id, nil) }
            return (id, (Date(timeIntervalSince1970: Double(Int.random(in: 0..<500, using: &random))), value))
        }
        atOnce.apply(changes)
        for (id, entry) in changes {
            if let entry {
                oneByOne.insert(id: id, fireDate: entry.fireDate, value: entry.value)
            } else {
                oneByOne.remove(id: id)
            }
        }
        #expect(atOnce.checkInvariants())
        #expect(atOnce.count == oneByOne.count)
        var popped: [(String, Int)] = []
        var expected: [(String, Int)] = []
        while let entry = atOnce.popFirst() { popped.append((entry.id, entry.value)) }
        while let entry = oneByOne.popFirst() { expected.append((entry.id, entry.value)) }
        #expect(popped.elementsEqual(expected) { $0 == $1 }, "the same entries, in the same order")
    }
}
