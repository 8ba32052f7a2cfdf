/// How an operation run under a time limit ended.
package enum TimeLimited<Value: Sendable>: Sendable {
    /// It finished first, with this value.
    case finished(Value)
    /// The limit passed first; the operation was cancelled.
    case timedOut
    /// The caller was cancelled before either.
    case cancelled

    /// Runs `operation`, racing a timer of `limit`; the loser is cancelled. For work whose own deadline does not
    /// cover all of it — AsyncHTTPClient's stops at the response head, so a server that sends the head and never the
    /// body would otherwise hold the caller for ever.
    package static func run(
        _ limit: Duration, _ operation: @escaping @Sendable () async -> Value
    ) async -> TimeLimited<Value> {
        await withTaskGroup(of: TimeLimited<Value>?.self) { group in
            group.addTask { .finished(await operation()) }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    return nil  // cancelled: the operation finished first, or the caller gave up
                }
                return .timedOut
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .cancelled
        }
    }
}
