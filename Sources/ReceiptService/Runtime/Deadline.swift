import _ReceiptKitShared

/// Runs `operation` with a time limit: its result, or `nil` when `limit` passed first (the operation is then
/// cancelled). Kept by `DeadlineTicker.shared`: one ticking task for all requests, not a timer each.
func withDeadline<T: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await DeadlineTicker.shared.run(limit: limit, operation)
}
