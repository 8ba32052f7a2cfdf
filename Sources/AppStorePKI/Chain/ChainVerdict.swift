public import X509

/// What ``ChainEvaluator/evaluate(_:signer:marker:at:)`` found: the trusted path, or why there is none.
///
/// Each verifier maps ``failures`` to its own reason codes (for example ReceiptKit's `signer_not_receipt_signing`
/// and AppStoreJWS's `signer_not_app_store` for ``Failure/signerLacksMarker``).
public struct ChainVerdict: Sendable {
    /// Why a chain is not trusted.
    public enum Failure: Sendable, Hashable {
        /// No path from the signer to a trusted anchor exists.
        case untrusted
        /// A sound path exists, but its signer lacks the marker the verifier asked for (``AppleSignerMarker``).
        case signerLacksMarker
        /// A sound path exists, but an intermediate lacks Apple's WWDR marker.
        case intermediateLacksMarker
        /// The path found is outside a certificate's validity window at the evaluation time.
        case outsideValidity
    }

    /// The path found with every marker in place, leaf first and anchor last; empty when there is none. It may be
    /// outside its validity window (``Failure/outsideValidity``).
    public let path: [Certificate]
    /// Which kind of anchor ``path`` ends at; `nil` when ``path`` is empty.
    public let anchor: AppStoreTrustAnchor?
    /// Every reason the chain is not trusted, in a stable order; empty for a trusted chain.
    public let failures: [Failure]

    /// Whether the chain is trusted at the evaluation time.
    public var isTrusted: Bool { self.failures.isEmpty }

    init(_ outcome: ChainOutcome, isWithinValidity: Bool) {
        var failures: [Failure]
        switch outcome {
        case .untrusted:
            (self.path, self.anchor, self.failures) = ([], nil, [.untrusted])
            return
        case .trusted(let path, .satisfied, let anchor):
            (self.path, self.anchor, failures) = (path, anchor, [])
        case .trusted(_, .signerLacksMarker, _):
            (self.path, self.anchor, failures) = ([], nil, [.signerLacksMarker])
        case .trusted(_, .intermediateLacksMarker, _):
            (self.path, self.anchor, failures) = ([], nil, [.intermediateLacksMarker])
        }
        if !isWithinValidity {
            failures.append(.outsideValidity)
        }
        self.failures = failures
    }
}
