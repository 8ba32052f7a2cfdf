import Foundation
import SwiftASN1
import X509

/// A path-building policy: the candidate path must contain a pinned certificate or a certificate whose public key
/// is pinned. Because the Verifier asks every candidate path, a path through a pin is found even when the server
/// presents several valid paths.
struct PinnedPathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []
    let pins: [PublicKeyPin]
    let certificates: [Certificate]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        self.contains(chain) ? .meetsPolicy : .failsToMeetPolicy(reason: "no pinned certificate or key on this path")
    }

    /// Whether a certificate of `path` is pinned or has a pinned key. Only meaningful for a path whose links were
    /// verified: a pinned certificate merely present in what a server sent proves nothing.
    func contains(_ path: some Sequence<Certificate>) -> Bool {
        path.contains { self.isPinned($0) }
    }

    func isPinned(_ certificate: Certificate) -> Bool {
        self.certificates.contains(certificate) || self.pins.contains { $0.matches(certificate) }
    }
}
