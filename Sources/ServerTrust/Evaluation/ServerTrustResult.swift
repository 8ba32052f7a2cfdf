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

    /// How many path searches (swift-certificates `Verifier` runs) the evaluation took: one decides and explains
    /// the verdict; a second checks the leaf's identity when no candidate path reached a policy, or links a pin
    /// when invalid certificates are allowed. Exposed for tests that bound the work.
    @_spi(Testing) public let pathSearches: Int

    init(failures: [ServerTrustFailure], reportedViolations: [ServerTrustFailure], chain: [Certificate], pathSearches: Int = 0) {
        self.failures = failures
        self.reportedViolations = reportedViolations
        self.chain = chain
        self.pathSearches = pathSearches
    }

    /// Whether the connection should proceed.
    public var isTrusted: Bool { self.failures.isEmpty }
}
