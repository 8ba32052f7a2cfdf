import AppStorePKI
public import Foundation
public import X509
public import _CryptoExtras
public import SwiftASN1

/// A test certificate authority shaped like Apple's receipt PKI: root → intermediate (WWDR marker) → receipt
/// signing leaf (receipt-signing marker), all RSA-2048.
///
/// Use it to mint receipts your tests can validate with `AppStoreTrustAnchors([ca.root])`. Every property can be
/// changed to build faulty hierarchies for negative tests (a leaf without the marker, an expired leaf, a root that
/// copies Apple's names).
public struct TestCertificateAuthority: Sendable {
    /// A certificate with its RSA private key.
    public typealias Identity = SigningIdentity<_RSA.Signing.PrivateKey>

    public var root: Identity
    public var intermediate: Identity
    /// The receipt-signing leaf, signed by the intermediate.
    public var leaf: Identity

    /// The subject names of the three certificates.
    public struct Names: Sendable {
        public var root: DistinguishedName
        public var intermediate: DistinguishedName
        public var leaf: DistinguishedName

        public init(root: DistinguishedName, intermediate: DistinguishedName, leaf: DistinguishedName) {
            self.root = root
            self.intermediate = intermediate
            self.leaf = leaf
        }

        /// Names that say plainly this is a test hierarchy.
        public static var receiptKitTest: Names {
            get throws {
                Names(
                    root: try DistinguishedName {
                        CountryName("US")
                        OrganizationName("ReceiptKit Test")
                        CommonName("ReceiptKit Test Root CA")
                    },
                    intermediate: try DistinguishedName {
                        CountryName("US")
                        OrganizationName("ReceiptKit Test")
                        CommonName("ReceiptKit Test Intermediate CA")
                    },
                    leaf: try DistinguishedName {
                        CountryName("US")
                        OrganizationName("ReceiptKit Test")
                        CommonName("ReceiptKit Test Receipt Signing")
                    }
                )
            }
        }

        /// Apple's exact names, for impostor hierarchies: a root named "Apple Root CA" that is not Apple's.
        public static var appleLookalike: Names {
            get throws {
                Names(
                    root: try DistinguishedName {
                        CountryName("US")
                        OrganizationName("Apple Inc.")
                        OrganizationalUnitName("Apple Certification Authority")
                        CommonName("Apple Root CA")
                    },
                    intermediate: try DistinguishedName {
                        CommonName("Apple Worldwide Developer Relations Certification Authority")
                        OrganizationalUnitName("G5")
                        OrganizationName("Apple Inc.")
                        CountryName("US")
                    },
                    leaf: try DistinguishedName {
                        CommonName("Mac App Store and iTunes Store Receipt Signing")
                        OrganizationalUnitName("Apple Worldwide Developer Relations")
                        OrganizationName("Apple Inc.")
                        CountryName("US")
                    }
                )
            }
        }
    }

    /// Apple's marker on receipt-signing leaves.
    public static let receiptSigningMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Apple's marker on WWDR intermediates.
    public static let wwdrMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    /// Creates a fresh hierarchy.
    /// - Parameters:
    ///   - names: Subject names.
    ///   - validity: The validity window of root and intermediate.
    ///   - leafValidity: The validity window of the leaf (defaults to `validity`).
    ///   - leafHasReceiptSigningMarker: Whether the leaf carries the receipt-signing marker.
    ///   - intermediateHasWWDRMarker: Whether the intermediate carries the WWDR marker.
    public init(
        names: Names? = nil,
        validity: DateInterval = DateInterval(
            start: Date(timeIntervalSince1970: 946_684_800),
            end: Date(timeIntervalSince1970: 4_102_444_800)
        ),
        leafValidity: DateInterval? = nil,
        leafHasReceiptSigningMarker: Bool = true,
        intermediateHasWWDRMarker: Bool = true
    ) throws {
        let names = try names ?? .receiptKitTest
        let rootKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let intermediateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leafKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)

        let caExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        let (rootPublic, intermediatePublic, leafPublic) = (
            Certificate.PublicKey(rootKey.publicKey), Certificate.PublicKey(intermediateKey.publicKey),
            Certificate.PublicKey(leafKey.publicKey)
        )
        var rootExtensions = caExtensions
        for identifier in try KeyIdentifiers.extensions(subject: rootPublic, issuer: nil) { try rootExtensions.append(identifier) }
        let root = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: rootPublic,
            notValidBefore: validity.start,
            notValidAfter: validity.end,
            issuer: names.root,
            subject: names.root,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: rootExtensions,
            issuerPrivateKey: .init(rootKey)
        )
        var intermediateExtensions = caExtensions
        for identifier in try KeyIdentifiers.extensions(subject: intermediatePublic, issuer: rootPublic) {
            try intermediateExtensions.append(identifier)
        }
        if intermediateHasWWDRMarker {
            try intermediateExtensions.append(Self.marker(Self.wwdrMarker))
        }
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: intermediatePublic,
            notValidBefore: validity.start,
            notValidAfter: validity.end,
            issuer: names.root,
            subject: names.intermediate,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: intermediateExtensions,
            issuerPrivateKey: .init(rootKey)
        )
        var leafExtensions = try Certificate.Extensions {
            Critical(KeyUsage(digitalSignature: true))
        }
        for identifier in try KeyIdentifiers.extensions(subject: leafPublic, issuer: intermediatePublic) {
            try leafExtensions.append(identifier)
        }
        if leafHasReceiptSigningMarker {
            try leafExtensions.append(Self.marker(Self.receiptSigningMarker))
        }
        let leafWindow = leafValidity ?? validity
        let leaf = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: leafPublic,
            notValidBefore: leafWindow.start,
            notValidAfter: leafWindow.end,
            issuer: names.intermediate,
            subject: names.leaf,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: leafExtensions,
            issuerPrivateKey: .init(intermediateKey)
        )
        self.root = Identity(certificate: root, privateKey: rootKey)
        self.intermediate = Identity(certificate: intermediate, privateKey: intermediateKey)
        self.leaf = Identity(certificate: leaf, privateKey: leafKey)
    }

    public init(root: Identity, intermediate: Identity, leaf: Identity) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
    }

    /// The signer and the certificates a receipt minted by this authority carries, in App Store order.
    public var receiptSigner: ReceiptSigner {
        ReceiptSigner(
            identity: self.leaf,
            certificates: [self.leaf.certificate, self.intermediate.certificate, self.root.certificate]
        )
    }

    /// A self-signed signer like Xcode's StoreKit test certificate (critical code-signing EKU, no markers).
    public static func storeKitStyleSigner(
        validity: DateInterval = DateInterval(
            start: Date(timeIntervalSince1970: 946_684_800),
            end: Date(timeIntervalSince1970: 4_102_444_800)
        )
    ) throws -> ReceiptSigner {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName {
            CountryName("US")
            OrganizationName("StoreKit")
            OrganizationalUnitName("StoreKit")
            CommonName("StoreKit")
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(bytes: [1]),
            publicKey: .init(key.publicKey),
            notValidBefore: validity.start,
            notValidAfter: validity.end,
            issuer: name,
            subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                Critical(try ExtendedKeyUsage([.codeSigning]))
            },
            issuerPrivateKey: .init(key)
        )
        let identity = Identity(certificate: certificate, privateKey: key)
        return ReceiptSigner(identity: identity, certificates: [certificate])
    }

    /// An Apple marker extension (non-critical, NULL value), as Apple writes it.
    static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }
}
