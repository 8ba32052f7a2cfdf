import X509

/// The certificate rules of a ``ServerTrustProfile`` over one candidate path (leaf first, anchor last), each broken
/// rule reported once by its reason code. Signatures, validity windows, pins and the host are checked elsewhere.
struct ProfileRules {
    let profile: ServerTrustProfile

    /// The reasons `path` breaks the profile, in a stable order; empty when it meets it.
    func failures(_ path: [CertificateFacts]) -> [ServerTrustFailure] {
        var failures: [ServerTrustFailure] = []
        func add(_ failure: ServerTrustFailure) {
            if !failures.contains(failure) { failures.append(failure) }
        }
        let web = self.profile.isWebPKI
        let anchorIndex = path.count - 1
        // A path of one certificate: the leaf is trusted as itself and issues nothing here.
        let trustedAsItself = path.count == 1

        for (index, certificate) in path.enumerated() {
            let isAnchor = index == anchorIndex
            let isIssuer = index > 0

            // Every certificate: its extensions.
            if certificate.hasMalformedExtension { add(.malformedExtension) }
            if certificate.hasUnknownCriticalExtension { add(.unknownCriticalExtension) }
            if certificate.hasCriticalIdentifierExtension { add(.extensionCriticality) }
            if certificate.subjectIsEmpty {
                if certificate.alternativeNames == nil {
                    add(.invalidName)
                } else if !certificate.alternativeNamesIsCritical {
                    add(.extensionCriticality)
                }
            } else if web, certificate.alternativeNamesIsCritical {
                add(.extensionCriticality)
            }
            // RFC 5280 §4.2.1.10: conforming CAs mark name constraints critical. The CA/Browser Forum BRs
            // (§7.1.2.5.2, §7.1.2.10.8) let them be non-critical, so the Web PKI applies them either way.
            if !web, certificate.hasNameConstraints, !certificate.nameConstraintsIsCritical {
                add(.extensionCriticality)
            }
            if certificate.assertsKeyCertSign, !certificate.isCertificateAuthority { add(.caConstraints) }

            // Certificates issued on this path (all but the anchor; a certificate trusted as itself included).
            if !isAnchor || trustedAsItself {
                if !certificate.hasValidSerialNumber { add(.invalidSerialNumber) }
                // RFC 5280 §4.1.2.4: the issuer field MUST contain a non-empty distinguished name. (A leaf naming
                // none below an issuer has no path at all: the evaluator reports it as this same reason.)
                if certificate.issuerIsEmpty { add(.invalidName) }
            }
            // RFC 5280 §4.2.1.1: every certificate but a self-signed one carries the AKI keyIdentifier — a
            // cross-signed root too, used as an intermediate or trusted as the anchor. Below the anchor a certificate
            // counts as issued by the next one; the anchor's own signature is checked by no one (§6.1 takes it as an
            // input), so a self-issued anchor counts as self-signed.
            if certificate.authorityKeyIdentifier?.keyIdentifier == nil, !isAnchor || !certificate.isSelfIssued {
                add(.keyIdentifier)
            }

            if index == 0 {
                if web, !certificate.isVersion3 { add(.certificateVersion) }
                if !trustedAsItself {
                    if web, certificate.isCertificateAuthority || certificate.assertsKeyCertSign { add(.caConstraints) }
                    if certificate.hasNameConstraints { add(.nameConstraints) }
                    // CA/Browser Forum BRs §7.1.2.7.6: a subscriber certificate's extKeyUsage is not critical.
                    if web, certificate.extendedKeyUsageIsCritical { add(.extensionCriticality) }
                }
            }

            guard isIssuer else { continue }
            // Certificates that issue on this path: intermediates and the anchor.
            if certificate.subjectIsEmpty { add(.invalidName) }
            // Version 1 and 2 certificates have no extensions: their CA rule below says what they may do.
            if certificate.isVersion3, certificate.subjectKeyIdentifier == nil { add(.keyIdentifier) }
            if !certificate.isVersion3 {
                // Version 1 and 2 carry no basicConstraints: RFC 5280 lets only an anchor (trusted out of band) issue.
                if web || !isAnchor { add(.caConstraints) }
            } else if !certificate.isCertificateAuthority || (isAnchor && !certificate.basicConstraintsIsCritical) {
                add(.caConstraints)
            }
            if let usage = certificate.keyUsage, !usage.keyCertSign { add(.caConstraints) }
            if let limit = certificate.pathLengthConstraint {
                let below = path[1..<index].filter { !$0.isSelfIssued }.count
                if below > limit { add(.pathLength) }
            }
            if web, let usage = certificate.extendedKeyUsage, !usage.contains(.serverAuth) { add(.extendedKeyUsage) }
            // CA/Browser Forum BRs §7.1.2.1.2: a root CA certificate carries no extKeyUsage. An intermediate
            // trusted as the anchor (configured or pinned) is no root and keeps its EKU (§7.1.2.10.6): so only
            // self-issued anchors.
            if web, isAnchor, certificate.isSelfIssued, certificate.hasExtendedKeyUsage { add(.extendedKeyUsage) }
            if web, isAnchor, let identifier = certificate.authorityKeyIdentifier {
                let ownKey = certificate.subjectKeyIdentifier?.keyIdentifier
                if identifier.keyIdentifier == nil || identifier.authorityCertIssuer != nil
                    || identifier.authorityCertSerialNumber != nil
                    || (certificate.isSelfIssued && identifier.keyIdentifier != ownKey)
                {
                    add(.keyIdentifier)
                }
            }
            if let constraints = certificate.nameConstraints, !self.namesPermitted(by: constraints, below: index, in: path) {
                add(.nameConstraints)
            }
        }
        return failures
    }

    /// Whether the certificates below `index` have names inside `constraints`. Self-issued intermediates are exempt
    /// (RFC 5280 §6.1.3: key rollover); the leaf never is.
    private func namesPermitted(by constraints: NameConstraints, below index: Int, in path: [CertificateFacts]) -> Bool {
        for position in 0..<index where position == 0 || !path[position].isSelfIssued {
            var names = path[position].constrainedNames
            if position == 0, !self.profile.isWebPKI, let host = path[position].commonNameHost,
                !names.contains(where: { if case .dnsName = $0 { return true } else { return false } })
            {
                // The RFC 5280 profile's identity check falls back to the Common Name: constrain what it reads.
                names.append(.dnsName(host))
            }
            if !NameConstraintRules.permits(constraints, names: names) { return false }
        }
        return true
    }

    /// Whether the leaf's extended key usage allows TLS server authentication: the Web PKI requires the extension
    /// with serverAuth and without anyExtendedKeyUsage (CA/Browser Forum BRs §7.1.2.7.10 forbid it in a subscriber
    /// certificate, beside serverAuth too); RFC 5280 accepts the extension's absence, serverAuth or
    /// anyExtendedKeyUsage in any company (§4.2.1.12: without the extension the key may serve any purpose).
    /// A certificate trusted as itself is held to the RFC 5280 rule (`openssl req -x509` writes no EKU).
    func leafAllowsServerAuth(_ leaf: CertificateFacts, trustedAsItself: Bool) -> Bool {
        let rfc5280Rule = !self.profile.isWebPKI || trustedAsItself
        guard let usage = leaf.extendedKeyUsage else {
            return !leaf.hasExtendedKeyUsage && rfc5280Rule
        }
        if rfc5280Rule {
            return usage.contains(.serverAuth) || usage.contains(.any)
        }
        return usage.contains(.serverAuth) && !usage.contains(.any)
    }
}
