import _ReceiptKitShared
import Testing

/// Time limits kept by one ticking task: an operation past its limit is cancelled and answered `nil`, one within it
/// keeps its value, the caller's cancellation reaches the operation, and nothing stays registered.
@Suite("Deadline ticker")
struct DeadlineTickerTests {
    /// What an operation saw: its own result, or that it was cancelled while it waited.
    enum Seen: Sendable, Equatable {
        case finished
        case cancelled
    }

    /// Sleeps up to a minute, reporting whether it was cancelled first (a ticker that never fires fails the test
    /// by answering `.finished` instead of `nil`).
    @Sendable static func waitsLong(_ observed: AsyncStream<Seen>.Continuation) async -> Seen {
        do {
            try await Task.sleep(for: .seconds(60))
            observed.yield(.finished)
            return .finished
        } catch {
            observed.yield(.cancelled)
            return .cancelled
        }
    }

    @Test("an operation past its limit is cancelled and answered nil")
    func expires() async throws {
        let ticker = DeadlineTicker(resolution: .milliseconds(10))
        let (observed, continuation) = AsyncStream<Seen>.makeStream()
        let answer = try await ticker.run(limit: .milliseconds(50)) { await Self.waitsLong(continuation) }
        #expect(answer == nil)
        var seen = observed.makeAsyncIterator()
        #expect(await seen.next() == .cancelled, "the operation saw its cancellation")
        #expect(ticker.pending == 0)
    }

    @Test("an operation within its limit keeps its value, and several run under one ticker")
    func keepsValues() async throws {
        let ticker = DeadlineTicker(resolution: .milliseconds(10))
        let answers = try await withThrowingTaskGroup(of: Int?.self) { group in
            for value in 0..<32 {
                group.addTask {
                    try await ticker.run(limit: .seconds(60)) {
                        try await Task.sleep(for: .milliseconds(value % 4))
                        return value
                    }
                }
            }
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(answers.compactMap { $0 }.sorted() == Array(0..<32))
        #expect(ticker.pending == 0)
    }

    @Test("cancelling the caller cancels the operation, whose own answer comes back")
    func callerCancellation() async throws {
        let ticker = DeadlineTicker(resolution: .milliseconds(10))
        let (observed, continuation) = AsyncStream<Seen>.makeStream()
        let caller = Task { try await ticker.run(limit: .seconds(60)) { await Self.waitsLong(continuation) } }
        try await Task.sleep(for: .milliseconds(20))
        caller.cancel()
        #expect(try await caller.value == .cancelled, "not expired: the operation's answer, not nil")
        var seen = observed.makeAsyncIterator()
        #expect(await seen.next() == .cancelled)
        #expect(ticker.pending == 0)
    }

    @Test("past the limit, what the cancelled operation throws is dropped: the answer is nil")
    func expiredErrors() async throws {
        let ticker = DeadlineTicker(resolution: .milliseconds(10))
        let answer = try await ticker.run(limit: .milliseconds(50)) { () async throws -> Int in
            try await Task.sleep(for: .seconds(60))  // throws CancellationError when the limit cancels it
            return 1
        }
        #expect(answer == nil)
    }

    @Test("an operation that ended is not expired by a late tick; one that had not is")
    func endedBeforeTheTick() {
        // The caller of an operation that ended in time may resume after the deadline on a busy pool (CI saw a
        // 408 for a request whose two-byte body had arrived): the tick then finds its entry still registered.
        var ended = DeadlineTicker.Phase.running
        ended.end()
        let expiredAfterEnd = ended.expire()
        #expect(expiredAfterEnd == false)
        #expect(ended == .ended)

        var late = DeadlineTicker.Phase.running
        let expiredWhileRunning = late.expire()
        #expect(expiredWhileRunning)
        late.end()
        #expect(late == .expired)
    }

    @Test("errors pass through")
    func errors() async throws {
        struct Refused: Error {}
        let ticker = DeadlineTicker(resolution: .milliseconds(10))
        await #expect(throws: Refused.self) {
            try await ticker.run(limit: .seconds(60)) { () async throws -> Int in throw Refused() }
        }
    }
}
