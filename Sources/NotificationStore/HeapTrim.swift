internal import CLinux

/// The C library's heap.
package enum HeapTrim {
    /// Gives the heap's free pages back to the system (`malloc_trim`).
    ///
    /// Call it once after a peak that will not come again, such as reading and taking apart the state at start-up:
    /// the allocator otherwise keeps that peak resident for the life of the process.
    package static func releaseFreePages() {
        _ = malloc_trim(0)
    }
}
