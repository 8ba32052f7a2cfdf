import SwiftASN1
import X509

/// Requires that a leaf with an extended-key-usage extension allows `serverAuth` or `anyExtendedKeyUsage`
/// (RFC 5280 §4.2.1.12), and takes responsibility for the extension when it is critical — swift-certificates has no
/// EKU policy and would otherwise reject such a leaf as carrying an unhandled critical extension.
struct ServerAuthExtendedKeyUsagePolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        self.allowsServerAuth(chain.leaf)
            ? .meetsPolicy : .failsToMeetPolicy(reason: "the leaf's extended key usage allows neither serverAuth nor any")
    }

    /// No EKU extension, or one listing serverAuth or anyExtendedKeyUsage; an unparseable one allows nothing.
    func allowsServerAuth(_ leaf: Certificate) -> Bool {
        guard let usage = try? leaf.extensions.extendedKeyUsage else {
            return leaf.extensions[oid: .X509ExtensionID.extendedKeyUsage] == nil
        }
        return usage.contains(.serverAuth) || usage.contains(.any)
    }
}
