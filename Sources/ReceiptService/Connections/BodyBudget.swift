import NIOConcurrencyHelpers

/// The bytes of request bodies the server holds at once, across connections
/// (``VerifyReceiptConfiguration/maximumInFlightBodyBytes``).
///
/// A request reserves what its body may take *before* a byte of it is read — its `Content-Length`, or the body
/// limit when it is chunked — and gives it back when it has been answered. Memory for bodies is therefore bounded
/// by the budget, however many clients start uploads and stall: those that do not fit are refused at once.
final class BodyBudget: Sendable {
    /// The budget in bytes.
    let limit: Int
    private let reserved = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Reserves `bytes`; `false` when the budget cannot cover them. A request alone always fits, so a budget
    /// below the body limit slows large bodies down to one at a time rather than refusing them for ever.
    func reserve(_ bytes: Int) -> Bool {
        self.reserved.withLockedValue { reserved in
            let wanted = max(0, bytes)
            guard reserved == 0 || wanted <= self.limit - reserved else { return false }
            reserved += wanted
            return true
        }
    }

    /// Gives back a reservation ``reserve(_:)`` granted.
    func release(_ bytes: Int) {
        self.reserved.withLockedValue { $0 = max(0, $0 - max(0, bytes)) }
    }
}
