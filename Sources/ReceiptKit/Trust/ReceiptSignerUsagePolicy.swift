import SwiftASN1
import X509

/// A verifier policy that takes responsibility for the extended-key-usage extension of receipt chains.
///
/// swift-certificates has no EKU policy, so a certificate whose EKU extension is critical — Xcode's StoreKit
/// certificate marks `codeSigning` critical — would be rejected as carrying an unhandled critical extension. A
/// receipt signature is not a use any EKU value names, and Apple's receipt-signing leaves carry no EKU; so the
/// extension is accepted when present. What a certificate may sign is decided by Apple's marker extensions instead
/// (see ``AppleMarkerExtensions``).
struct ReceiptSignerUsagePolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        .meetsPolicy
    }
}
