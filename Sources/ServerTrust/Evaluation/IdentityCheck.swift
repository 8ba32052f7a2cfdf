import X509

/// How an evaluation decides whether the leaf names the server: under ``ServerTrustProfile/webPKI`` by
/// ``WebPKIHostMatch`` at once, from the leaf alone; under ``ServerTrustProfile/rfc5280`` by swift-certificates'
/// `ServerIdentityPolicy` (Common Name when there is no SAN), asked of a candidate path or of the leaf as its own root
/// — except for a leaf whose SAN names neither a DNS name nor an IP address (a `directoryName` alone, say), which
/// swift-certificates would refuse outright: RFC 6125 §6.4.4 falls back to the Common Name when the presented
/// identifiers hold no DNS-ID, so the RFC 5280 profile decides that case itself from the last Common Name (a DNS host
/// only; an IP address is never read from a Common Name). Name constraints cover the same Common Name
/// (``ProfileRules``), so what the fallback reads is what they constrain.
struct IdentityCheck {
    /// The verdict when the profile decides from the leaf alone; `nil` when a path search asks.
    let decided: Bool?
    private let identity: ServerIdentity

    init(profile: ServerTrustProfile, host: CanonicalHost, identity: ServerIdentity, leaf: CertificateFacts) {
        if profile.isWebPKI {
            self.decided = WebPKIHostMatch.matches(leaf.alternativeNames, host)
        } else if let names = leaf.alternativeNames, !names.contains(where: Self.isHostIdentifier) {
            self.decided =
                host.addressBytes == nil
                && leaf.commonNameHost.map { WebPKIHostMatch.matches(SubjectAlternativeNames([.dnsName($0)]), host) } == true
        } else {
            self.decided = nil
        }
        self.identity = identity
    }

    /// Whether a SAN entry is one a host is matched against (RFC 6125: a DNS-ID; or an IP address).
    private static func isHostIdentifier(_ name: GeneralName) -> Bool {
        switch name {
        case .dnsName, .ipAddress: return true
        default: return false
        }
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
