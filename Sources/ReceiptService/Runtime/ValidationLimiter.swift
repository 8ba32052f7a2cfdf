import _ReceiptKitShared

/// Bounds how many validations run at once (an ``AsyncSemaphore``, so the rest queue in arrival order and a
/// cancelled request leaves the queue) and runs each on Swift's global concurrent executor — never on the
/// event-loop thread that received the request. Its permits are CPU slots: a validation waiting for the network
/// (an OCSP responder) gives its slot back meanwhile (``NetworkWaitScope``).
struct ValidationLimiter: Sendable {
    private let semaphore: AsyncSemaphore

    init(permits: Int) {
        self.semaphore = AsyncSemaphore(permits: permits)
    }

    /// Validations running now.
    var running: Int { self.semaphore.held }

    /// The permit the current task's validation holds, for ``NetworkWaitScope`` to set aside.
    @TaskLocal static var permit: AsyncSemaphore.Permit?

    /// Runs `body` when a permit is free; `nil` when the task was cancelled before one was. Network waits inside it
    /// that go through ``NetworkWaitScope`` give the permit back meanwhile.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T? {
        await self.semaphore.withReleasablePermit { permit in
            await Self.$permit.withValue(permit) {
                #if canImport(Darwin)
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    return await withTaskExecutorPreference(globalConcurrentExecutor) { await body() }
                }
                return await body()
                #else
                return await withTaskExecutorPreference(globalConcurrentExecutor) { await body() }
                #endif
            }
        }
    }
}
