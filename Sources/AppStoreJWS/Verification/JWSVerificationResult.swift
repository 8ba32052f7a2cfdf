public import struct Foundation.Date
public import AppStorePKI
public import X509

/// The verdict on one App Store JWS: the decoded payload and every check it failed.
public struct JWSVerificationResult<Payload: AppStoreSignedPayload>: Sendable {
    /// The payload as signed (decoded whether or not it verified: look at ``isValid`` before trusting it).
    public let payload: Payload
    /// The header as signed.
    public let header: JWSHeader
    /// Every failed check; empty when the JWS is valid.
    public let failures: [JWSVerificationFailure]
    /// The validated certificate path, leaf first, when the chain is trusted.
    public let certificatePath: [Certificate]
    /// The anchor the path ended at, when trusted (`AppStoreTrustAnchor.appleRootCAG3` for App Store data).
    public let anchor: AppStoreTrustAnchor?
    /// The instant the chain was validated at.
    public let trustEvaluationTime: Date

    /// Whether every check passed.
    public var isValid: Bool { self.failures.isEmpty }

    /// Whether it failed only because a check could not be made now (an unreachable OCSP responder): retry later
    /// rather than reject.
    public var isRetryable: Bool { !self.failures.isEmpty && self.failures.allSatisfy(\.isRetryable) }
}
