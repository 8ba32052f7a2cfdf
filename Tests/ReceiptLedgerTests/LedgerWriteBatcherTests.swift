import NIOConcurrencyHelpers
@testable import ReceiptLedger
import Testing

/// Group commit, against a backend double whose transactions the test opens and closes: which writes share a
/// transaction, that none is answered before its transaction commits, and what a failed batch does to each.
@Suite("Ledger write batcher")
struct LedgerWriteBatcherTests {
    /// A backend whose transactions wait for ``release()``, keep the statements they ran, and fail as told: a
    /// statement whose text is `refuse` throws `statementFailed`; with `commitFails`, every commit throws
    /// `unavailable`.
    final class GatedBackend: SQLBackend {
        struct State {
            var open: [CheckedContinuation<Void, Never>] = []
            var released = 0
            var committed: [[String]] = []
            var commitFails = false
        }
        let state = NIOLockedValueBox(State())

        var dialect: SQLDialect { .sqlite }
        var seesEveryWrite: Bool { true }

        struct Session: SQLSession {
            let ran: NIOLockedValueBox<[String]>
            func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
                if statement.sql == "refuse" { throw LedgerError(.statementFailed, "refused") }
                self.ran.withLockedValue { $0.append(statement.sql) }
                return []
            }
        }

        func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
            try await body(Session(ran: NIOLockedValueBox([])))
        }

        func transaction<T: Sendable>(
            exclusive: Bool, _ body: @escaping @Sendable (any SQLSession) async throws -> T
        ) async throws -> T {
            await withCheckedContinuation { continuation in
                let go = self.state.withLockedValue { state in
                    guard state.released == 0 else {
                        state.released -= 1
                        return true
                    }
                    state.open.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
            let ran = NIOLockedValueBox<[String]>([])
            let result = try await body(Session(ran: ran))  // a throwing body rolls back: nothing kept
            let fails = self.state.withLockedValue { $0.commitFails }
            if fails { throw LedgerError(.unavailable, "commit failed") }
            self.state.withLockedValue { $0.committed.append(ran.withLockedValue { $0 }) }
            return result
        }

        /// Lets one transaction (waiting or the next to come) start.
        func release() {
            let waiting = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                if state.open.isEmpty {
                    state.released += 1
                    return nil
                }
                return state.open.removeFirst()
            }
            waiting?.resume()
        }

        /// Transactions waiting to start.
        var waiting: Int { self.state.withLockedValue { $0.open.count } }

        func ledgerError(_ error: any Error) -> LedgerError {
            (error as? LedgerError) ?? LedgerError(.unavailable, "\(error)")
        }

        func shutdown() async {}
    }

    /// Waits (briefly, polling) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }

    static func write(_ batcher: LedgerWriteBatcher<GatedBackend>, _ sql: String) async -> Result<String, LedgerError> {
        do {
            return .success(
                try await batcher.write { session in
                    _ = try await session.run(SQLStatement(sql: sql, binds: []))
                    return sql
                })
        } catch {
            return .failure(error as? LedgerError ?? LedgerError(.unavailable, "\(error)"))
        }
    }

    @Test("writes queued while a transaction runs share the next one, and are answered only once it commits")
    func writesShareATransaction() async throws {
        let backend = GatedBackend()
        let batcher = LedgerWriteBatcher(backend: backend, statements: LedgerStatements(dialect: .sqlite))
        let answered = NIOLockedValueBox<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                if case .success(let sql) = await Self.write(batcher, "first") { answered.withLockedValue { $0.append(sql) } }
            }
            try await Self.eventually { backend.waiting == 1 }
            for index in 0..<9 {
                group.addTask {
                    if case .success(let sql) = await Self.write(batcher, "w\(index)") {
                        answered.withLockedValue { $0.append(sql) }
                    }
                }
            }
            // Nine writes wait behind the first transaction; nothing is answered while it is open.
            try await Self.eventually { batcher.queued == 9 }
            #expect(batcher.queued == 9)
            #expect(answered.withLockedValue { $0 }.isEmpty)
            backend.release()
            try await Self.eventually { answered.withLockedValue { $0 } == ["first"] && backend.waiting == 1 }
            #expect(answered.withLockedValue { $0 } == ["first"])
            backend.release()
            try await group.waitForAll()
        }
        let committed = backend.state.withLockedValue { $0.committed }
        #expect(committed.count == 2)
        #expect(committed.first == ["first"])
        #expect(Set(committed.last ?? []) == Set((0..<9).map { "w\($0)" }))
        #expect(answered.withLockedValue { $0 }.count == 10)
        #expect(batcher.statistics == LedgerWriteStatistics(transactions: 2, writes: 10))
    }

    @Test("a write the database refuses fails alone: the batch's others are run again and committed")
    func refusedWriteFailsAlone() async throws {
        let backend = GatedBackend()
        let batcher = LedgerWriteBatcher(backend: backend, statements: LedgerStatements(dialect: .sqlite))
        let results = NIOLockedValueBox<[String: Result<String, LedgerError>]>([:])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, sql) in ["first", "a", "refuse", "b"].enumerated() {
                group.addTask {
                    let result = await Self.write(batcher, sql)
                    results.withLockedValue { $0[sql] = result }
                }
                // The first holds its transaction open while the other three queue, one after the other: they share
                // the next one, in this order.
                if index == 0 {
                    try await Self.eventually { backend.waiting == 1 }
                } else {
                    try await Self.eventually { batcher.queued == index }
                }
            }
            #expect(batcher.queued == 3)
            // The first, the shared one (rolled back by the refusal), then one each for the three run again.
            for _ in 0..<5 { backend.release() }
            try await group.waitForAll()
        }
        let outcome = results.withLockedValue { $0 }
        #expect(try outcome["a"]?.get() == "a")
        #expect(try outcome["b"]?.get() == "b")
        guard case .failure(let error)? = outcome["refuse"] else {
            Issue.record("the refused write was acknowledged")
            return
        }
        #expect(error.code == .statementFailed)
        let committed = backend.state.withLockedValue { $0.committed }
        #expect(committed == [["first"], ["a"], ["b"]])
        #expect(batcher.statistics == LedgerWriteStatistics(transactions: 5, writes: 7))
    }

    @Test("a commit that fails (unavailable) fails its batch and the writes queued behind it at once, retryable, none acknowledged")
    func failedCommitFailsTheBatchAndTheQueue() async throws {
        let backend = GatedBackend()
        backend.state.withLockedValue { $0.commitFails = true }
        let batcher = LedgerWriteBatcher(backend: backend, statements: LedgerStatements(dialect: .sqlite))
        let results = NIOLockedValueBox<[Result<String, LedgerError>]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    let result = await Self.write(batcher, "w\(index)")
                    results.withLockedValue { $0.append(result) }
                }
                // The first holds its transaction open; five wait behind it.
                if index == 0 {
                    try await Self.eventually { backend.waiting == 1 }
                } else {
                    try await Self.eventually { batcher.queued == index }
                }
            }
            #expect(batcher.queued == 5)
            backend.release()  // one transaction only: the queued writes must not wait for transactions of their own
            try await group.waitForAll()
        }
        let outcome = results.withLockedValue { $0 }
        #expect(outcome.count == 6)
        for result in outcome {
            guard case .failure(let error) = result else {
                Issue.record("a write was acknowledged though its commit failed")
                continue
            }
            #expect(error.code == .unavailable)
            #expect(error.isRetryable)
        }
        #expect(backend.state.withLockedValue { $0.committed }.isEmpty)
        #expect(batcher.statistics == LedgerWriteStatistics(transactions: 1, writes: 1))
        #expect(batcher.queued == 0)
    }
}
