import SwiftASN1
import X509

/// The path rule when invalid certificates are allowed: the leaf must be linked to a pinned certificate or key by
/// signatures — each certificate signed by the next, which the Verifier checks before asking any policy — through
/// issuers that are CAs. Expiry, anchors and name constraints are what "invalid" relaxes; the links never are, so a
/// forged leaf followed by a genuine, pinned intermediate does not pass.
struct LinkedPinPathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.basicConstraints,
        .X509ExtensionID.keyUsage,
        .X509ExtensionID.nameConstraints,
        .X509ExtensionID.extendedKeyUsage,
        .X509ExtensionID.subjectAlternativeName,
    ]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        for issuer in chain.dropFirst() {
            guard case .isCertificateAuthority = try? issuer.extensions.basicConstraints else {
                return .failsToMeetPolicy(reason: "an issuer on the path is not a CA")
            }
        }
        return .meetsPolicy
    }
}
