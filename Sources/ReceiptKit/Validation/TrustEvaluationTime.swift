public import struct Foundation.Date

/// The instant at which a receipt's certificate chain is validated.
///
/// Apple's receipt-signing certificates live about two years, and every receipt stays signed by the certificate
/// that was current when it was created, so the default is the receipt's own creation date: a receipt was valid
/// if its chain was valid when Apple issued it.
public struct TrustEvaluationTime: Sendable, Hashable {
    enum Storage: Hashable {
        case receiptCreationDate
        case now
        case fixed(Date)
    }

    let storage: Storage

    /// The receipt's creation date (attribute 12); the validation clock's "now" when the receipt has none.
    public static let receiptCreationDate = TrustEvaluationTime(storage: .receiptCreationDate)
    /// The validation clock's "now" (the `now` passed to ``ReceiptValidator/validate(_:now:)``).
    public static let now = TrustEvaluationTime(storage: .now)

    /// A fixed instant.
    public static func fixed(_ date: Date) -> TrustEvaluationTime {
        TrustEvaluationTime(storage: .fixed(date))
    }

    func resolve(receipt: AppReceipt, now: Date) -> Date {
        switch self.storage {
        case .receiptCreationDate: return receipt.creationDate ?? now
        case .now: return now
        case .fixed(let date): return date
        }
    }
}
