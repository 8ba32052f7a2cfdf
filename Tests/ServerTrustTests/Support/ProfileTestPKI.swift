import Crypto
import Foundation
import SwiftASN1
import TLSTestSupport
import X509

/// Certificates built per test to break one profile rule at a time: a Web PKI–conformant root, intermediate and
/// leaf by default (P-256, valid 2020–2030, evaluated at ``TLSTestPKI/now``), each of whose extensions, names,
/// version and serial number a test can change.
enum ProfileTestPKI {
    struct Issued {
        var certificate: Certificate
        var key: P256.Signing.PrivateKey
    }

    /// What to issue; `extensions` in the order written.
    struct Spec {
        var subject: DistinguishedName
        var issuerName: DistinguishedName?
        var version: Certificate.Version = .v3
        var extensions: [Certificate.Extension]
        /// The serialNumber content octets exactly as encoded (negative, zero or long ones included).
        var serial: [UInt8]?

        mutating func remove(_ oid: ASN1ObjectIdentifier) {
            self.extensions.removeAll { $0.oid == oid }
        }

        /// Replaces the extension with the same OID, or appends.
        mutating func set(_ replacement: Certificate.Extension) {
            if let index = self.extensions.firstIndex(where: { $0.oid == replacement.oid }) {
                self.extensions[index] = replacement
            } else {
                self.extensions.append(replacement)
            }
        }
    }

    static func name(_ common: String) throws -> DistinguishedName {
        try DistinguishedName { CommonName(common) }
    }

    static func identifier(_ key: P256.Signing.PrivateKey) -> ArraySlice<UInt8> {
        ArraySlice(Insecure.SHA1.hash(data: key.publicKey.derRepresentation))
    }

    static func rootSpec(_ key: P256.Signing.PrivateKey, name: String = "Profile Root") throws -> Spec {
        Spec(
            subject: try Self.name(name),
            extensions: [
                try .init(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                try .init(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
                try .init(SubjectKeyIdentifier(keyIdentifier: Self.identifier(key)), critical: false),
            ]
        )
    }

    static func intermediateSpec(
        _ key: P256.Signing.PrivateKey,
        issuer: Issued,
        name: String = "Profile Intermediate",
        pathLength: Int? = nil
    ) throws -> Spec {
        Spec(
            subject: try Self.name(name),
            extensions: [
                try .init(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength), critical: true),
                try .init(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
                try .init(SubjectKeyIdentifier(keyIdentifier: Self.identifier(key)), critical: false),
                try .init(AuthorityKeyIdentifier(keyIdentifier: Self.identifier(issuer.key)), critical: false),
            ]
        )
    }

    static func leafSpec(
        _ key: P256.Signing.PrivateKey,
        issuer: Issued,
        names: [GeneralName] = [.dnsName("api.example.test"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]
    ) throws -> Spec {
        Spec(
            subject: try Self.name("api.example.test"),
            extensions: [
                try .init(KeyUsage(digitalSignature: true), critical: true),
                try .init(ExtendedKeyUsage([.serverAuth]), critical: false),
                try .init(SubjectAlternativeNames(names), critical: false),
                try .init(SubjectKeyIdentifier(keyIdentifier: Self.identifier(key)), critical: false),
                try .init(AuthorityKeyIdentifier(keyIdentifier: Self.identifier(issuer.key)), critical: false),
            ]
        )
    }

    /// Issues the spec `make` writes for a fresh key, signed by `issuer` (self-signed without one).
    static func issue(_ make: (P256.Signing.PrivateKey) throws -> Spec, issuer: Issued?) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        return try Self.issue(try make(key), key: key, issuer: issuer)
    }

    /// Issues `spec` for `key`, signed by `issuer` (self-signed without one).
    static func issue(_ spec: Spec, key: P256.Signing.PrivateKey, issuer: Issued?) throws -> Issued {
        let signer = issuer?.key ?? key
        let certificate = try Certificate(
            version: spec.version,
            serialNumber: Certificate.SerialNumber(bytes: [0x11] + Array(repeating: 0x22, count: 15)),
            publicKey: .init(key.publicKey),
            notValidBefore: TLSTestPKI.start,
            notValidAfter: TLSTestPKI.end,
            issuer: spec.issuerName ?? issuer?.certificate.subject ?? spec.subject,
            subject: spec.subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions(spec.extensions),
            issuerPrivateKey: .init(signer)
        )
        guard let serial = spec.serial else { return Issued(certificate: certificate, key: key) }
        return Issued(certificate: try Self.resigned(certificate, serial: serial, by: signer), key: key)
    }

    /// `certificate` with its serialNumber content replaced by `serial` and signed again: swift-certificates
    /// normalises serial numbers, so a negative one can only be written by hand.
    static func resigned(_ certificate: Certificate, serial: [UInt8], by key: P256.Signing.PrivateKey) throws -> Certificate {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let whole = try DER.parse(serializer.serializedBytes)
        guard case .constructed(let top) = whole.content, let tbsNode = top.first(where: { _ in true }) else {
            throw ASN1Error.invalidASN1Object(reason: "no TBSCertificate")
        }
        let algorithm = Array(Array(top)[1].encodedBytes)
        guard case .constructed(let fields) = tbsNode.content else { throw ASN1Error.invalidASN1Object(reason: "TBS") }
        var parts = fields.map { Array($0.encodedBytes) }
        let serialIndex = parts.first?.first == 0xA0 ? 1 : 0
        parts[serialIndex] = [0x02] + Self.length(serial.count) + serial
        let tbs = Self.wrap(0x30, parts.flatMap { $0 })
        let signature = try key.signature(for: tbs).derRepresentation
        let bytes = Self.wrap(0x30, tbs + algorithm + Self.wrap(0x03, [0x00] + Array(signature)))
        return try Certificate(derEncoded: bytes)
    }

    private static func wrap(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + Self.length(content.count) + content
    }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }
}

extension Certificate.Extension {
    /// The same extension, marked critical or not.
    func withCriticality(_ critical: Bool) -> Certificate.Extension {
        Certificate.Extension(oid: self.oid, critical: critical, value: self.value)
    }
}
