import Glibc
import Testing

@testable import NotificationStore

@Suite("Work split into chunks over a few threads")
struct ChunkedWorkTests {
    @Test("every element is worked on once, and the outputs come back in the order of the list")
    func order() {
        let elements = Array(0..<10_007)
        for minimum in [1, 100, 2_000, 20_000] {
            let chunks = ChunkedWork.map(elements, minimumPerThread: minimum) { Array($0) }
            #expect(chunks.flatMap { $0 } == elements, "at least \(minimum) per thread")
            #expect(chunks.count == ChunkedWork.threadCount(for: elements.count, minimumPerThread: minimum))
        }
        #expect(ChunkedWork.map([Int](), minimumPerThread: 1) { $0.count } == [0])
    }

    @Test("a short list stays on the caller's thread; a long one uses at most four, and no more than processors")
    func threadCount() {
        let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(ChunkedWork.threadCount(for: 1_999, minimumPerThread: 2_000) == 1)
        #expect(ChunkedWork.threadCount(for: 0, minimumPerThread: 2_000) == 1)
        #expect(ChunkedWork.threadCount(for: 1_000_000, minimumPerThread: 2_000) == min(4, processors))
        #expect(ChunkedWork.threadCount(for: 4_000, minimumPerThread: 2_000) == min(2, processors))
    }
}
