#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Splits a long list into chunks and works on them on a few threads at once: the caller's and short-lived ones of
/// its own, joined before it returns. For the store's start-up, where thousands of rows are decoded: the work is
/// independent row by row, and waiting for it is all the daemon does then.
///
/// Threads of their own, not tasks: a task run on Swift's default executor would start libdispatch's pool, which
/// then wakes the process once a second for its whole life.
enum ChunkedWork {
    /// How many threads to use for `count` items, when a thread should get at least `minimumPerThread`: one per
    /// online processor, at most four.
    static func threadCount(for count: Int, minimumPerThread: Int) -> Int {
        let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return max(1, min(4, processors, count / max(1, minimumPerThread)))
    }

    /// `transform` applied to consecutive chunks of `elements`, the results in the order of the chunks.
    ///
    /// - Parameter minimumPerThread: below this many elements a chunk is not worth a thread; a short list is
    ///   worked on by the caller alone.
    static func map<Element: Sendable, Output: Sendable>(
        _ elements: [Element], minimumPerThread: Int, _ transform: @escaping @Sendable (ArraySlice<Element>) -> Output
    ) -> [Output] {
        let threads = threadCount(for: elements.count, minimumPerThread: minimumPerThread)
        guard threads > 1 else { return [transform(elements[...])] }
        let size = (elements.count + threads - 1) / threads
        let chunks = stride(from: 0, to: elements.count, by: size).map {
            elements[$0..<min($0 + size, elements.count)]
        }
        let others = chunks.dropFirst().map { chunk in
            let slot = Slot<Output>()
            return (slot, Worker { slot.value = transform(chunk) })
        }
        let first = transform(chunks[0])
        return [first]
            + others.map { slot, worker in
                worker.join()
                return slot.value!
            }
    }

    /// Where a chunk's thread leaves its output: written by the thread before it ends, read after `pthread_join`,
    /// which orders the two.
    private final class Slot<Output>: @unchecked Sendable {
        var value: Output?
    }

    /// One chunk's thread; ``join()`` waits for it. Without a thread (none could be created), the work is done by
    /// the caller, in ``join()``.
    private final class Worker: Sendable {
        private let work: @Sendable () -> Void
        private let thread: pthread_t?

        init(_ work: @escaping @Sendable () -> Void) {
            self.work = work
            var thread = pthread_t()
            let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
            if pthread_create(
                &thread, nil,
                { box in
                    Unmanaged<WorkBox>.fromOpaque(box!).takeRetainedValue().work()
                    return nil
                }, box) == 0
            {
                self.thread = thread
            } else {
                Unmanaged<WorkBox>.fromOpaque(box).release()
                self.thread = nil
            }
        }

        func join() {
            if let thread { pthread_join(thread, nil) } else { work() }
        }
    }

    /// The work, boxed so that it can pass through `pthread_create`'s context pointer.
    private final class WorkBox: Sendable {
        let work: @Sendable () -> Void

        init(_ work: @escaping @Sendable () -> Void) {
            self.work = work
        }
    }
}
