import _ReceiptKitShared
import Crypto
import SwiftASN1
import _CryptoExtras

/// Verifies the signer's RSA PKCS#1 v1.5 signature over the receipt content (RFC 5652 §5.4, §5.6).
///
/// Without signed attributes the signature covers the digest of the content itself. With signed attributes it
/// covers their DER encoding re-tagged as `SET OF` (0x31 instead of the `[0]` IMPLICIT tag), and the
/// `message-digest` attribute must equal the content digest and the `content-type` attribute must be `id-data`.
enum ContentSignature {
    enum DigestAlgorithm {
        case sha1
        case sha256
        case sha384
        case sha512
    }

    /// The digest the signer info names, when its signature algorithm is RSA and consistent with it; `nil` otherwise.
    static func digestAlgorithm(of signer: CMSSignerInfo) -> DigestAlgorithm? {
        let digest: DigestAlgorithm
        switch signer.digestAlgorithm.algorithm {
        case CMSObjectIdentifiers.sha1: digest = .sha1
        case CMSObjectIdentifiers.sha256: digest = .sha256
        case CMSObjectIdentifiers.sha384: digest = .sha384
        case CMSObjectIdentifiers.sha512: digest = .sha512
        default: return nil
        }
        switch (signer.signatureAlgorithm.algorithm, digest) {
        case (CMSObjectIdentifiers.rsaEncryption, _),
            (CMSObjectIdentifiers.sha1WithRSAEncryption, .sha1),
            (CMSObjectIdentifiers.sha256WithRSAEncryption, .sha256),
            (CMSObjectIdentifiers.sha384WithRSAEncryption, .sha384),
            (CMSObjectIdentifiers.sha512WithRSAEncryption, .sha512):
            return digest
        default:
            return nil
        }
    }

    /// Whether `signer` validly signed `content` with `key`.
    static func isValid(
        signer: CMSSignerInfo,
        content: ArraySlice<UInt8>,
        key: _RSA.Signing.PublicKey
    ) -> Bool {
        guard let algorithm = Self.digestAlgorithm(of: signer) else { return false }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signer.signature)

        guard let signed = signer.signedAttributes else {
            return Self.verify(signature, over: content, algorithm, key)
        }
        // RFC 5652 §5.3 and §11.1–11.2: with signed attributes, exactly one content-type attribute (id-data) and exactly
        // one message-digest attribute (the content's digest) MUST be present, each with exactly one value. A second
        // instance is refused whatever it says, so "wrong digest, then right digest" cannot pass.
        var digestCount = 0
        var contentTypeCount = 0
        var digestMatches = false
        var contentTypeMatches = false
        for attribute in signed.attributes {
            switch attribute.type {
            case CMSObjectIdentifiers.messageDigestAttribute:
                digestCount += 1
                guard digestCount == 1, attribute.values.count == 1, let value = attribute.values.first,
                    let expected = try? ASN1OctetString(berEncoded: value).bytes
                else { return false }
                digestMatches = ConstantTime.equals(expected, Self.digest(content, algorithm)[...])
            case CMSObjectIdentifiers.contentTypeAttribute:
                contentTypeCount += 1
                guard contentTypeCount == 1, attribute.values.count == 1, let value = attribute.values.first,
                    let type = try? ASN1ObjectIdentifier(berEncoded: value)
                else { return false }
                contentTypeMatches = type == CMSObjectIdentifiers.data
            default:
                continue
            }
        }
        guard digestMatches, contentTypeMatches else { return false }
        var retagged = Array(signed.encodedBytes)
        retagged[0] = 0x31
        return Self.verify(signature, over: retagged[...], algorithm, key)
    }

    private static func digest(_ bytes: ArraySlice<UInt8>, _ algorithm: DigestAlgorithm) -> [UInt8] {
        switch algorithm {
        case .sha1: return Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: return Array(SHA256.hash(data: bytes))
        case .sha384: return Array(SHA384.hash(data: bytes))
        case .sha512: return Array(SHA512.hash(data: bytes))
        }
    }

    private static func verify(
        _ signature: _RSA.Signing.RSASignature,
        over bytes: ArraySlice<UInt8>,
        _ algorithm: DigestAlgorithm,
        _ key: _RSA.Signing.PublicKey
    ) -> Bool {
        let padding = _RSA.Signing.Padding.insecurePKCS1v1_5
        switch algorithm {
        case .sha1: return key.isValidSignature(signature, for: Insecure.SHA1.hash(data: bytes), padding: padding)
        case .sha256: return key.isValidSignature(signature, for: SHA256.hash(data: bytes), padding: padding)
        case .sha384: return key.isValidSignature(signature, for: SHA384.hash(data: bytes), padding: padding)
        case .sha512: return key.isValidSignature(signature, for: SHA512.hash(data: bytes), padding: padding)
        }
    }
}

