internal import CGIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A thread that runs a GLib main loop on a main context of its own, for GIO objects that report changes through
/// signals (`GSettings`, `GFileMonitor`): those signals are emitted on the thread-default main context their object
/// was created in, so such objects are created, used and released only by work given to ``perform(_:)``.
final class GLibLoopThread: @unchecked Sendable {
    // Both pointers are set once; GLib's main context and loop may be used from any thread.
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var thread = pthread_t()

    /// Starts the thread; `nil` when no thread can be created.
    init?() {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let started = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { argument in
                let owner = Unmanaged<GLibLoopThread>.fromOpaque(argument!).takeRetainedValue()
                g_main_context_push_thread_default(owner.context)
                g_main_loop_run(owner.loop)
                g_main_context_pop_thread_default(owner.context)
                return nil
            }, started)
        guard created == 0 else {
            Unmanaged<GLibLoopThread>.fromOpaque(started).release()
            g_main_loop_unref(loop)
            g_main_context_unref(context)
            return nil
        }
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Runs `work` on the loop's thread and returns its result.
    func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let job = Unmanaged.passRetained(Job { continuation.resume(returning: work()) }).toOpaque()
            g_main_context_invoke_full(
                context, 0,
                { data in
                    Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue().body()
                    return 0
                }, job,
                { data in Unmanaged<Job>.fromOpaque(data!).release() })
        }
    }

    /// Runs the last `work` (releasing GIO objects), then stops the loop and waits for its thread to end.
    func stop(after work: @escaping @Sendable () -> Void) async {
        let loop = UncheckedLoop(pointer: loop)
        await perform {
            work()
            g_main_loop_quit(loop.pointer)
        }
        pthread_join(thread, nil)
    }

    /// The loop pointer, carried into the closure that quits it (GLib allows quitting from any thread).
    private struct UncheckedLoop: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private final class Job: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
