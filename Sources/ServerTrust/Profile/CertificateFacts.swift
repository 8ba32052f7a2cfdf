import SwiftASN1
import X509

/// What the profile rules need to know of one certificate, decoded once per evaluation (the Verifier asks about
/// every candidate path, and swift-certificates decodes an extension each time it is read).
struct CertificateFacts {
    /// The extensions these rules process; any other critical extension is unknown and fails the path.
    static let processedExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.basicConstraints,
        .X509ExtensionID.keyUsage,
        .X509ExtensionID.extendedKeyUsage,
        .X509ExtensionID.subjectAlternativeName,
        .X509ExtensionID.nameConstraints,
        .X509ExtensionID.authorityKeyIdentifier,
        .X509ExtensionID.subjectKeyIdentifier,
        .X509ExtensionID.authorityInformationAccess,
    ]

    let isVersion3: Bool
    /// Positive, non-zero and at most 20 octets (a 21st leading zero octet of the DER form allowed).
    let hasValidSerialNumber: Bool
    let issuerIsEmpty: Bool
    let subjectIsEmpty: Bool
    /// Issuer and subject are the same name.
    let isSelfIssued: Bool
    let basicConstraints: BasicConstraints?
    let basicConstraintsIsCritical: Bool
    let keyUsage: KeyUsage?
    let extendedKeyUsage: ExtendedKeyUsage?
    /// Whether the extension is there at all (decoded or not).
    let hasExtendedKeyUsage: Bool
    let extendedKeyUsageIsCritical: Bool
    let alternativeNames: SubjectAlternativeNames?
    let alternativeNamesIsCritical: Bool
    let nameConstraints: NameConstraints?
    /// Whether the extension is there at all (decoded or not).
    let hasNameConstraints: Bool
    let nameConstraintsIsCritical: Bool
    let authorityKeyIdentifier: AuthorityKeyIdentifier?
    let subjectKeyIdentifier: SubjectKeyIdentifier?
    /// An extension does not decode, or breaks its syntax (an empty SAN or AIA; name constraints with no subtree
    /// or a subtree that is no valid constraint).
    let hasMalformedExtension: Bool
    /// AKI, SKI or AIA marked critical (RFC 5280: conforming CAs MUST NOT).
    let hasCriticalIdentifierExtension: Bool
    let hasUnknownCriticalExtension: Bool
    /// The names name constraints apply to: a non-empty subject as a directoryName, then the SAN entries.
    let constrainedNames: [GeneralName]
    /// The subject's last Common Name.
    let lastCommonName: String?

    /// The last Common Name when it reads as a DNS name: what swift-certificates' identity check falls back to
    /// without a SAN, so what name constraints must cover under the RFC 5280 profile. Read only where a name
    /// constraint applies, so not decided up front.
    var commonNameHost: String? {
        self.lastCommonName.flatMap { name in
            name.contains(".") && DNSName.labels(of: name, allowingWildcard: true) != nil ? name : nil
        }
    }

    var isCertificateAuthority: Bool {
        if case .isCertificateAuthority = self.basicConstraints { return true }
        return false
    }

    var pathLengthConstraint: Int? {
        if case .isCertificateAuthority(let length) = self.basicConstraints { return length }
        return nil
    }

    var assertsKeyCertSign: Bool { self.keyUsage?.keyCertSign ?? false }

    init(_ certificate: Certificate) {
        let extensions = certificate.extensions
        var malformed = false
        func decoded<T>(_ read: () throws -> T?) -> T? {
            do {
                return try read()
            } catch {
                malformed = true
                return nil
            }
        }
        // A pathLenConstraint without cA is ignored, not malformed (RFC 5280 §4.2.1.9): see BasicConstraintsSyntax.
        self.basicConstraints = decoded { try BasicConstraintsSyntax.basicConstraints(of: extensions) }
        self.keyUsage = decoded { try extensions.keyUsage }
        self.extendedKeyUsage = decoded { try extensions.extendedKeyUsage }
        self.alternativeNames = decoded { try extensions.subjectAlternativeNames }
        var constraints = decoded { try extensions.nameConstraints }
        self.authorityKeyIdentifier = decoded { try extensions.authorityKeyIdentifier }
        self.subjectKeyIdentifier = decoded { try extensions.subjectKeyIdentifier }
        let access = decoded { try extensions.authorityInformationAccess }
        if let names = self.alternativeNames, names.isEmpty { malformed = true }
        if let access, access.isEmpty { malformed = true }
        if let subtrees = constraints.map({ $0.permittedSubtrees + $0.excludedSubtrees }),
            subtrees.isEmpty || !subtrees.allSatisfy(NameConstraintRules.isWellFormed)
        {
            // Reported as malformed; there is nothing to apply.
            malformed = true
            constraints = nil
        }
        self.nameConstraints = constraints
        self.hasMalformedExtension = malformed

        func isCritical(_ oid: ASN1ObjectIdentifier) -> Bool { extensions[oid: oid]?.critical ?? false }
        self.basicConstraintsIsCritical = isCritical(.X509ExtensionID.basicConstraints)
        self.alternativeNamesIsCritical = isCritical(.X509ExtensionID.subjectAlternativeName)
        self.nameConstraintsIsCritical = isCritical(.X509ExtensionID.nameConstraints)
        let usage = extensions[oid: .X509ExtensionID.extendedKeyUsage]
        self.hasExtendedKeyUsage = usage != nil
        self.extendedKeyUsageIsCritical = usage?.critical ?? false
        self.hasNameConstraints = extensions[oid: .X509ExtensionID.nameConstraints] != nil
        self.hasCriticalIdentifierExtension =
            isCritical(.X509ExtensionID.authorityKeyIdentifier) || isCritical(.X509ExtensionID.subjectKeyIdentifier)
            || isCritical(.X509ExtensionID.authorityInformationAccess)
        self.hasUnknownCriticalExtension = extensions.contains { $0.critical && !Self.processedExtensions.contains($0.oid) }

        self.isVersion3 = certificate.version == .v3
        self.hasValidSerialNumber = Self.serialNumberIsValid(certificate.tbsCertificateBytes)
        self.issuerIsEmpty = certificate.issuer.isEmpty
        self.subjectIsEmpty = certificate.subject.isEmpty
        self.isSelfIssued = certificate.issuer == certificate.subject
        var names: [GeneralName] = self.subjectIsEmpty ? [] : [.directoryName(certificate.subject)]
        names += self.alternativeNames.map(Array.init) ?? []
        self.constrainedNames = names
        self.lastCommonName = Self.lastCommonName(certificate.subject)
    }

    private static func lastCommonName(_ name: DistinguishedName) -> String? {
        for rdn in name.reversed() {
            for attribute in rdn.reversed() where attribute.type == .RDNAttributeType.commonName {
                return String(attribute.value)
            }
        }
        return nil
    }

    /// Reads serialNumber as encoded (swift-certificates normalises it, which would hide a negative one):
    ///
    /// ```
    /// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, serialNumber INTEGER, ... }
    /// ```
    static func serialNumberIsValid(_ tbs: ArraySlice<UInt8>) -> Bool {
        guard var fields = DERHeader.fieldsFromSerialNumber(ofTBSCertificate: tbs), let field = fields.next() else {
            return false
        }
        let serial = field.content
        guard field.tag == 0x02, let first = serial.first, first & 0x80 == 0 else { return false }
        guard serial.contains(where: { $0 != 0 }) else { return false }
        return serial.count <= 20 || (serial.count == 21 && first == 0)
    }
}
