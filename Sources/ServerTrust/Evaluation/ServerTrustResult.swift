public import X509

/// The verdict on a server's chain for one host.
public struct ServerTrustResult: Sendable {
    /// Every reason the chain is not trusted; empty when it is.
    public let failures: [ServerTrustFailure]
    /// Failures that a report-only policy saw and allowed.
    public let reportedViolations: [ServerTrustFailure]
    /// The validated path, leaf first, anchor last; the presented chain when invalid certificates were allowed;
    /// empty when nothing validated.
    public let chain: [Certificate]

    /// Whether the connection should proceed.
    public var isTrusted: Bool { self.failures.isEmpty }
}
