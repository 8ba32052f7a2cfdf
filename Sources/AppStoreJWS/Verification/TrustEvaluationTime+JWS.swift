public import AppStorePKI

extension TrustEvaluationTime {
    /// The payload's `signedDate` (``AppStoreSignedPayload/signingTime``); the verification clock's "now" when the
    /// payload has none.
    ///
    /// App Store signing certificates are short-lived, and a transaction stays signed by the certificate that was
    /// current when it was signed: the data was valid if its chain was valid when Apple signed it. The same instant
    /// as `TrustEvaluationTime.signingDate`, named for signed data.
    public static var signedDate: TrustEvaluationTime { .signingDate }
}

/// Renamed `TrustEvaluationTime`, the evaluation time shared with receipt validation.
@available(*, deprecated, renamed: "TrustEvaluationTime")
public typealias JWSTrustEvaluationTime = TrustEvaluationTime
