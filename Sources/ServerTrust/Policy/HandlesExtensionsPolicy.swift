import SwiftASN1
import X509

/// Declares extensions handled without checking them, so that a one-question verification (does this leaf name
/// the host?) is not refused for critical extensions another evaluation step is responsible for.
struct HandlesExtensionsPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    init(extensions: [ASN1ObjectIdentifier]) {
        self.verifyingCriticalExtensions = extensions
    }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        .meetsPolicy
    }
}
