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
