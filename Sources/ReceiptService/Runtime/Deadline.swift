/// Runs `operation` with a time limit: its result, or `nil` when `limit` passed first (the operation is then
/// cancelled). Elapsed time is measured on the continuous clock; it is a resource bound, not logic.
func withDeadline<T: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { return nil }
        return first
    }
}
