import AppStorePKI
public import Foundation
public import X509
public import Crypto

/// A test certificate authority shaped like Apple's JWS signing PKI: root → intermediate (WWDR marker) → App Store
/// signing leaf (marker 1.2.840.113635.100.6.11.1), all ECDSA P-256, so that data signed by ``JWSMinter`` verifies
/// with `JWSVerificationPolicy(anchors: AppStoreTrustAnchors([authority.root.certificate]))`.
///
/// Every property can be replaced to build faulty hierarchies (a leaf without the marker, an expired leaf).
public struct JWSTestAuthority: Sendable {
    /// A certificate with its P-256 private key.
    public typealias Identity = SigningIdentity<P256.Signing.PrivateKey>

    public var root: Identity
    public var intermediate: Identity
    public var leaf: Identity

    /// The `x5c` chain Apple sends: leaf, intermediate, root.
    public var chain: [Certificate] { [self.leaf.certificate, self.intermediate.certificate, self.root.certificate] }

    public init(root: Identity, intermediate: Identity, leaf: Identity) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
    }

    /// Creates a fresh hierarchy.
    /// - Parameters:
    ///   - validity: The validity window of root and intermediate.
    ///   - leafValidity: The validity window of the leaf (defaults to `validity`).
    ///   - leafHasSigningMarker: Whether the leaf carries Apple's App Store signing marker.
    ///   - intermediateHasWWDRMarker: Whether the intermediate carries the WWDR marker.
    ///   - leafOCSPURI: An OCSP responder for the leaf (an Authority Information Access extension), as Apple's
    ///     leaves name one; `nil` for none.
    public init(
        validity: DateInterval = DateInterval(
            start: Date(timeIntervalSince1970: 946_684_800),
            end: Date(timeIntervalSince1970: 4_102_444_800)
        ),
        leafValidity: DateInterval? = nil,
        leafHasSigningMarker: Bool = true,
        intermediateHasWWDRMarker: Bool = true,
        leafOCSPURI: String? = nil
    ) throws {
        func name(_ common: String) throws -> DistinguishedName {
            try DistinguishedName {
                CountryName("US")
                OrganizationName("ReceiptKit Test")
                CommonName(common)
            }
        }
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let caExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        let rootName = try name("ReceiptKit Test JWS Root CA")
        let intermediateName = try name("ReceiptKit Test JWS Intermediate CA")
        let (rootPublic, intermediatePublic, leafPublic) = (
            Certificate.PublicKey(rootKey.publicKey), Certificate.PublicKey(intermediateKey.publicKey),
            Certificate.PublicKey(leafKey.publicKey)
        )
        var rootExtensions = caExtensions
        for identifier in try KeyIdentifiers.extensions(subject: rootPublic, issuer: nil) { try rootExtensions.append(identifier) }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootPublic,
            notValidBefore: validity.start, notValidAfter: validity.end, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: rootExtensions, issuerPrivateKey: .init(rootKey)
        )
        var intermediateExtensions = caExtensions
        for identifier in try KeyIdentifiers.extensions(subject: intermediatePublic, issuer: rootPublic) {
            try intermediateExtensions.append(identifier)
        }
        if intermediateHasWWDRMarker {
            try intermediateExtensions.append(TestCertificateAuthority.marker(TestCertificateAuthority.wwdrMarker))
        }
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediatePublic,
            notValidBefore: validity.start, notValidAfter: validity.end, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: intermediateExtensions, issuerPrivateKey: .init(rootKey)
        )
        var leafExtensions = try Certificate.Extensions { Critical(KeyUsage(digitalSignature: true)) }
        for identifier in try KeyIdentifiers.extensions(subject: leafPublic, issuer: intermediatePublic) {
            try leafExtensions.append(identifier)
        }
        if leafHasSigningMarker {
            try leafExtensions.append(TestCertificateAuthority.marker(TestCertificateAuthority.receiptSigningMarker))
        }
        if let leafOCSPURI {
            try leafExtensions.append(
                Certificate.Extension(
                    AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier(leafOCSPURI))]),
                    critical: false
                )
            )
        }
        let leafWindow = leafValidity ?? validity
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafPublic,
            notValidBefore: leafWindow.start, notValidAfter: leafWindow.end, issuer: intermediateName,
            subject: try name("ReceiptKit Test App Store Signing"),
            signatureAlgorithm: .ecdsaWithSHA256, extensions: leafExtensions, issuerPrivateKey: .init(intermediateKey)
        )
        self.root = Identity(certificate: root, privateKey: rootKey)
        self.intermediate = Identity(certificate: intermediate, privateKey: intermediateKey)
        self.leaf = Identity(certificate: leaf, privateKey: leafKey)
    }

    /// A self-signed P-256 signer like the one Xcode's StoreKit testing signs local transactions with.
    public static func localTestingSigner(
        validity: DateInterval = DateInterval(
            start: Date(timeIntervalSince1970: 946_684_800),
            end: Date(timeIntervalSince1970: 4_102_444_800)
        )
    ) throws -> Identity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("StoreKit Testing in Xcode") }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: validity.start, notValidAfter: validity.end, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            },
            issuerPrivateKey: .init(key)
        )
        return Identity(certificate: certificate, privateKey: key)
    }
}
