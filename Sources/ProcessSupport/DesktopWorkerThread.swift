internal import CLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs short blocking work (file lookups, `fork`, a child's pipe) on a thread of its own, so that it never holds a
/// thread of Swift's cooperative pool.
///
/// Meant for rare events (a click on an action, a prompt) and for threads that live as long as their owner (the
/// store's writer): each call starts one detached thread that ends with the work. The thread inherits the caller's signal mask, so code that starts programs must reset the mask in the child.
package enum DesktopWorkerThread {
    /// Runs `work` on a new thread and returns its result. When no thread can be created, `work` runs on the calling
    /// thread instead: slower for the pool, but the caller still gets its answer.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            detach { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on a new detached thread, named `name` (at most 15 bytes show in `ps`) when given. When no
    /// thread can be created, `work` runs on the calling thread instead.
    package static func detach(name: String? = nil, _ work: @escaping @Sendable () -> Void) {
        let job = Job {
            if let name { nb_set_thread_name(name) }
            work()
        }
        let context = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
        }
    }

    /// The work, boxed so that its ownership can pass through `pthread_create`'s context pointer.
    private final class Job: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
