import NIOCore
import NIOPosix
@testable import ReceiptService
import Testing

@Suite("Validation limiter")
struct ValidationLimiterTests {
    @Test("validation runs off the event loops, even when the caller's task prefers one")
    func offEventLoop() async throws {
        let limiter = ValidationLimiter(permits: 2)
        let executor = EventLoopTaskExecutor(loop: MultiThreadedEventLoopGroup.singleton.any())
        let (callerOnLoop, bodyOnLoop) = await withTaskExecutorPreference(executor) {
            let caller = MultiThreadedEventLoopGroup.currentEventLoop != nil
            let body = await limiter.run { MultiThreadedEventLoopGroup.currentEventLoop != nil }
            return (caller, body)
        }
        #expect(callerOnLoop)  // the control: this task really runs on an event loop
        #expect(bodyOnLoop == false)
    }

    @Test("at most N run at once; cancelled waiters leave the queue")
    func bound() async throws {
        let limiter = ValidationLimiter(permits: 2)
        let peak = Peak()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    _ = await limiter.run {
                        await peak.enter()
                        try? await Task.sleep(for: .milliseconds(5))
                        await peak.leave()
                    }
                }
            }
        }
        #expect(await peak.maximum == 2)
        #expect(limiter.running == 0)

        // A waiter cancelled while queued gets nil and never runs.
        let gate = AsyncStream<Void>.makeStream()
        let holders = (0..<2).map { _ in Task { await limiter.run { for await _ in gate.stream {} } } }
        while limiter.running < 2 { await Task.yield() }
        let waiter = Task { await limiter.run { true } }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        #expect(await waiter.value == nil)
        gate.continuation.finish()
        for holder in holders { _ = await holder.value }
        #expect(limiter.running == 0)
    }

    @Test("a network wait gives the slot back and takes it again; cancelled while queueing for it, none is given back twice")
    func networkWaitsSetTheSlotAside() async throws {
        let limiter = ValidationLimiter(permits: 1)
        let scope = NetworkWaitScope()
        let first = Self.validationWaitingOnTheNetwork(limiter, scope) { limiter.running }
        await first.entered()  // it waits, outside its slot
        // The slot is free while it waits: another validation runs.
        #expect(await limiter.run { limiter.running } == 1)
        first.release()
        #expect(await first.task.value == 1)  // held again after the wait
        #expect(limiter.running == 0)

        // Cancelled while queueing to take the slot back: it ends without one, and the count stays right.
        let holder = AsyncStream<Void>.makeStream()
        let second = Self.validationWaitingOnTheNetwork(limiter, scope) { 0 }
        let cancelled = second.task
        await second.entered()
        let blocker = Task { await limiter.run { for await _ in holder.stream {} } }
        while limiter.running < 1 { await Task.yield() }
        second.release()  // its wait ends, and it queues behind the blocker
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        #expect(await cancelled.value == 0)
        #expect(limiter.running == 1)  // the blocker's
        holder.continuation.finish()
        _ = await blocker.value
        #expect(limiter.running == 0)
    }
}

extension ValidationLimiterTests {
    /// A validation on `limiter` that waits for the network inside `scope` until released, then returns `after()`.
    struct NetworkWait {
        let task: Task<Int?, Never>
        let entered: @Sendable () async -> Void
        let release: @Sendable () -> Void
    }

    static func validationWaitingOnTheNetwork(
        _ limiter: ValidationLimiter, _ scope: NetworkWaitScope, after: @escaping @Sendable () -> Int
    ) -> NetworkWait {
        let gate = AsyncStream<Void>.makeStream()
        let entered = AsyncStream<Void>.makeStream()
        let task = Task {
            await limiter.run {
                await scope.waiting {
                    entered.continuation.finish()
                    for await _ in gate.stream {}
                }
                return after()
            }
        }
        return NetworkWait(
            task: task, entered: { for await _ in entered.stream {} }, release: { gate.continuation.finish() })
    }
}

actor Peak {
    var current = 0
    var maximum = 0
    func enter() { current += 1; maximum = max(maximum, current) }
    func leave() { current -= 1 }
}

/// Runs a task's jobs on a NIO event loop, as a server that pins handlers to their channel's loop would.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop
    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = self.asUnownedTaskExecutor()
        self.loop.execute { job.runSynchronously(on: executor) }
    }
}
