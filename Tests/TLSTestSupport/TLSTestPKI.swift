package import Crypto
package import Foundation
import SwiftASN1
package import X509

/// Certificates for server-trust scenarios, generated per test process (P-256 keys: fast), valid 2020–2030 and
/// evaluated at a pinned instant inside that window, so no test depends on today's date.
package struct TLSTestPKI: Sendable {
    package struct Identity: Sendable {
        package var certificate: Certificate
        package var key: P256.Signing.PrivateKey
    }

    package static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15
    package static let start = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    package static let end = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01

    package let root: Identity
    package let otherRoot: Identity
    package let intermediate: Identity
    /// The same intermediate key and name, signed by `otherRoot` (a cross-signature).
    package let crossIntermediate: Identity
    package let leaf: Identity
    package let expiredLeaf: Identity
    package let clientAuthLeaf: Identity
    package let criticalServerAuthLeaf: Identity
    package let selfSigned: Identity
    package let unrelated: Identity

    package static let shared: Result<TLSTestPKI, any Error> = Result { try TLSTestPKI() }

    package static func name(_ common: String) throws -> DistinguishedName {
        try DistinguishedName {
            OrganizationName("ReceiptKit TLS Test")
            CommonName(common)
        }
    }

    package static func make(
        _ common: String,
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        issuer: Identity?,
        ca: Bool,
        names: [String] = ["localhost", "api.example.test", "www.example.test"],
        serves: Bool? = nil,
        ips: [[UInt8]] = [[127, 0, 0, 1]],
        usage: ExtendedKeyUsage? = nil,
        criticalUsage: Bool = false,
        from start: Date = TLSTestPKI.start,
        to end: Date = TLSTestPKI.end,
        issuerName: DistinguishedName? = nil
    ) throws -> Identity {
        let subject = try Self.name(common)
        let extensions = try Certificate.Extensions {
            if ca {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: serves ?? false, keyCertSign: true))
            } else {
                Critical(KeyUsage(digitalSignature: true))
            }
            if serves ?? !ca {
                SubjectAlternativeNames(
                    names.map { GeneralName.dnsName($0) } + ips.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...])) }
                )
            }
            SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
            if let issuer, let identifier = try? issuer.certificate.extensions.subjectKeyIdentifier {
                AuthorityKeyIdentifier(keyIdentifier: identifier.keyIdentifier)
            }
            // What a Web PKI leaf carries: serverAuth, unless the test says otherwise.
            if let usage = try usage ?? (serves ?? !ca ? ExtendedKeyUsage([.serverAuth]) : nil) {
                if criticalUsage { Critical(usage) } else { usage }
            }
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: start,
            notValidAfter: end,
            issuer: issuerName ?? issuer?.certificate.subject ?? subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(issuer?.key ?? key)
        )
        return Identity(certificate: certificate, key: key)
    }

    package init() throws {
        self.root = try Self.make("Root A", issuer: nil, ca: true)
        self.otherRoot = try Self.make("Root B", issuer: nil, ca: true)
        let intermediateKey = P256.Signing.PrivateKey()
        self.intermediate = try Self.make("Intermediate", key: intermediateKey, issuer: self.root, ca: true)
        self.crossIntermediate = try Self.make("Intermediate", key: intermediateKey, issuer: self.otherRoot, ca: true)
        self.leaf = try Self.make("Leaf", issuer: self.intermediate, ca: false)
        self.expiredLeaf = try Self.make(
            "Expired Leaf",
            issuer: self.intermediate,
            ca: false,
            from: Self.start,
            to: Date(timeIntervalSince1970: 1_700_000_000)
        )
        self.clientAuthLeaf = try Self.make(
            "Client Auth Leaf",
            issuer: self.intermediate,
            ca: false,
            usage: try ExtendedKeyUsage([.clientAuth]),
            criticalUsage: true
        )
        self.criticalServerAuthLeaf = try Self.make(
            "Server Auth Leaf",
            issuer: self.intermediate,
            ca: false,
            usage: try ExtendedKeyUsage([.serverAuth]),
            criticalUsage: true
        )
        // As `openssl req -x509` makes them: CA:TRUE, and the server's names.
        self.selfSigned = try Self.make("Self Signed", issuer: nil, ca: true, serves: true)
        self.unrelated = try Self.make("Unrelated", issuer: nil, ca: true)
    }

    package var chain: [Certificate] { [self.leaf.certificate, self.intermediate.certificate] }
}

extension Certificate {
    package var pem: String {
        get throws { try self.serializeAsPEM().pemString }
    }
}
