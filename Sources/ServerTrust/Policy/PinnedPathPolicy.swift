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
        Self.containsPin(Array(chain), pins: self.pins, certificates: self.certificates)
            ? .meetsPolicy : .failsToMeetPolicy(reason: "no pinned certificate or key on this path")
    }

    static func containsPin(_ chain: [Certificate], pins: [PublicKeyPin], certificates: [Certificate]) -> Bool {
        for certificate in chain {
            if certificates.contains(certificate) { return true }
            if pins.contains(where: { $0.matches(certificate) }) { return true }
        }
        return false
    }
}
