import NIOConcurrencyHelpers

/// The server's count of open connections against its cap, shared by every connection's ``ConnectionGuard``.
final class OpenConnections: Sendable {
    /// The cap (``VerifyReceiptConfiguration/maximumConnections``).
    let limit: Int
    private let count = NIOLockedValueBox(0)
    private let metrics: ServiceMetrics

    init(limit: Int, metrics: ServiceMetrics) {
        self.limit = max(1, limit)
        self.metrics = metrics
    }

    /// Takes a place for a new connection; `false` when all are taken (the connection must then be closed).
    func admit() -> Bool {
        let admitted: Int? = self.count.withLockedValue { count in
            guard count < self.limit else { return nil }
            count += 1
            return count
        }
        guard let admitted else { return false }
        self.metrics.setOpenConnections(admitted)
        return true
    }

    /// Gives back the place of a connection ``admit()`` let in.
    func release() {
        let remaining = self.count.withLockedValue { count in
            count = max(0, count - 1)
            return count
        }
        self.metrics.setOpenConnections(remaining)
    }
}
