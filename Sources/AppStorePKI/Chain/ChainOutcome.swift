import X509

/// The time-independent result of path validation for one exact set of certificates, signer, marker and anchors:
/// what the trust cache keeps.
///
/// Signatures, basic constraints, key usage, name constraints and Apple's markers do not depend on the validation
/// time; only the validity windows do. So a path found once is cached here and, for every later signed object with
/// the same certificates, only its windows are checked at that object's own validation time (``ChainVerdict``).
enum ChainOutcome: Sendable {
    /// No path to a trusted anchor exists at any instant the certificates are all valid.
    case untrusted
    /// A path exists: leaf first, anchor last.
    case trusted(path: [Certificate], markers: MarkerVerdict, anchor: AppStoreTrustAnchor)

    enum MarkerVerdict: Sendable, Equatable {
        case satisfied
        case signerLacksMarker
        case intermediateLacksMarker
    }
}
