public import struct Foundation.Date

/// The instant at which a JWS's certificate chain is validated.
///
/// App Store signing certificates are short-lived, and a transaction stays signed by the certificate that was
/// current when it was signed, so the default is the payload's own `signedDate`: the data was valid if its chain was
/// valid when Apple signed it. Use ``now`` to refuse data whose certificates have since expired.
public struct JWSTrustEvaluationTime: Sendable, Hashable {
    enum Storage: Hashable {
        case signedDate
        case now
        case fixed(Date)
    }

    let storage: Storage

    /// The payload's `signedDate` (``AppStoreSignedPayload/signingTime``); the verification clock's "now" when the
    /// payload has none.
    public static let signedDate = JWSTrustEvaluationTime(storage: .signedDate)
    /// The verification clock's "now" (the `now` passed to ``JWSVerifier``).
    public static let now = JWSTrustEvaluationTime(storage: .now)

    /// A fixed instant.
    public static func fixed(_ date: Date) -> JWSTrustEvaluationTime {
        JWSTrustEvaluationTime(storage: .fixed(date))
    }

    func resolve(signingTime: Date?, now: Date) -> Date {
        switch self.storage {
        case .signedDate: return signingTime ?? now
        case .now: return now
        case .fixed(let date): return date
        }
    }
}
