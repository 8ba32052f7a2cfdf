public import struct Foundation.Date

/// The instant at which a signed object's certificate chain is validated: the one evaluation-time type of receipt
/// validation and App Store JWS verification.
///
/// Apple's signing certificates are short-lived, and a receipt or a transaction stays signed by the certificate that
/// was current when it was signed, so verifiers default to ``signingDate``: the data was valid if its chain was
/// valid when Apple signed it. Use ``now`` to refuse data whose certificates have since expired.
public struct TrustEvaluationTime: Sendable, Hashable {
    enum Storage: Hashable {
        case signingDate
        case now
        case fixed(Date)
    }

    let storage: Storage

    /// The date the signed object carries: a receipt's creation date (attribute 12), a JWS payload's `signedDate`;
    /// the verification clock's "now" when it carries none.
    public static let signingDate = TrustEvaluationTime(storage: .signingDate)
    /// The verification clock's "now" (the `now` the verifier is called with).
    public static let now = TrustEvaluationTime(storage: .now)

    /// A fixed instant.
    public static func fixed(_ date: Date) -> TrustEvaluationTime {
        TrustEvaluationTime(storage: .fixed(date))
    }

    /// The instant this names for an object signed at `signingDate` (if it says), verified at `now`.
    public func resolve(signingDate: Date?, now: Date) -> Date {
        switch self.storage {
        case .signingDate: return signingDate ?? now
        case .now: return now
        case .fixed(let date): return date
        }
    }
}
