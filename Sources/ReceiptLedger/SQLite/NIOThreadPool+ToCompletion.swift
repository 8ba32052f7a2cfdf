import NIOPosix

extension NIOThreadPool {
    /// Runs `body` on one of the pool's threads and waits for it, whatever happens to the calling task meanwhile.
    ///
    /// `runIfActive` drops work whose task was cancelled before a thread took it; a statement dropped so — a `COMMIT`
    /// or the `ROLLBACK` after it — would leave the writer's transaction open and every later `BEGIN` refused. A
    /// statement asked for here always runs. Throws ``LedgerError/Code/unavailable`` only when the pool is shut down.
    func runToCompletion<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            self.submit { state in
                guard case .active = state else {
                    continuation.resume(throwing: LedgerError(.unavailable, "SQLite: the ledger is shut down"))
                    return
                }
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
