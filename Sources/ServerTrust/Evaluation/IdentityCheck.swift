import X509

/// How an evaluation decides whether the leaf names the server: under ``ServerTrustProfile/webPKI`` by
/// ``WebPKIHostMatch`` at once, from the leaf alone; under ``ServerTrustProfile/rfc5280`` by swift-certificates'
/// `ServerIdentityPolicy` (Common Name when there is no SAN), asked of a candidate path or of the leaf as its own root.
struct IdentityCheck {
    /// The verdict when the profile decides from the leaf alone; `nil` when a path search asks.
    let decided: Bool?
    private let identity: ServerIdentity

    init(profile: ServerTrustProfile, host: CanonicalHost, identity: ServerIdentity, leaf: CertificateFacts) {
        self.decided = profile.isWebPKI ? WebPKIHostMatch.matches(leaf.alternativeNames, host) : nil
        self.identity = identity
    }

    /// The check a path search runs, when the profile leaves it to one.
    var verifierPolicy: ServerIdentityPolicy? {
        self.decided == nil
            ? ServerIdentityPolicy(serverHostname: self.identity.hostname, serverIP: self.identity.ipAddress) : nil
    }

    /// Whether the leaf names the identity: what the path search found, else decided now.
    func leafNamesIdentity(_ findings: PathFindings, _ leaf: Certificate, _ searches: inout Int) async -> Bool {
        if let known = findings.leafNamesIdentity { return known }
        return await self.leafNamesIdentity(leaf, &searches)
    }

    /// Whether the leaf names the identity, path validity aside: for the RFC 5280 profile the leaf is made its own
    /// root so that only swift-certificates' identity policy decides (one more search).
    func leafNamesIdentity(_ leaf: Certificate, _ searches: inout Int) async -> Bool {
        if let decided = self.decided { return decided }
        searches += 1
        let identity = self.identity
        var verifier = Verifier(rootCertificates: CertificateStore([leaf])) {
            ServerIdentityPolicy(serverHostname: identity.hostname, serverIP: identity.ipAddress)
            HandlesExtensionsPolicy(extensions: leaf.extensions.filter(\.critical).map(\.oid))
        }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore()) {
            return true
        }
        return false
    }
}
