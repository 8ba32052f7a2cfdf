public import Foundation
public import ReceiptKit
import Crypto
import SwiftASN1
import X509
import _CryptoExtras

/// Creates complete, correctly signed PKCS#7 receipts with any content, for tests.
///
/// ```swift
/// let ca = try TestCertificateAuthority()
/// var receipt = AppReceipt(bundleIdentifier: "com.example.app", appVersion: "1", opaqueValue: [1, 2, 3, 4])
/// receipt = ReceiptMinter.settingDeviceHash(of: receipt, for: device)
/// let bytes = try ReceiptMinter.mint(receipt, signer: ca.receiptSigner)
/// ```
public enum ReceiptMinter {
    /// How the container is encoded and signed.
    public struct Options: Sendable {
        /// The wire layout: App Store DER, or Xcode's BER with indefinite lengths and a constructed payload.
        public var style: Style
        /// The digest named in the SignerInfo.
        public var digest: Digest
        /// Whether to add signed attributes (content-type and message-digest; RFC 5652 §5.3).
        public var signedAttributes: Bool
        /// The signature algorithm the SignerInfo names; `nil` takes the style's (`rsaEncryption` for the App
        /// Store, `sha…WithRSAEncryption` for Xcode).
        public var signerAlgorithm: SignerAlgorithm?
        /// A deliberate defect, for negative tests.
        public var fault: Fault?
        /// Encodings to embed as the certificate set instead of the signer's certificates (any bytes: for tests of
        /// hostile or garbled certificates). The signer identifier still names the signer's certificate.
        public var rawCertificates: [[UInt8]]?

        public init(
            style: Style = .appStore,
            digest: Digest = .sha256,
            signedAttributes: Bool = false,
            signerAlgorithm: SignerAlgorithm? = nil,
            fault: Fault? = nil,
            rawCertificates: [[UInt8]]? = nil
        ) {
            self.style = style
            self.digest = digest
            self.signedAttributes = signedAttributes
            self.signerAlgorithm = signerAlgorithm
            self.fault = fault
            self.rawCertificates = rawCertificates
        }
    }

    /// How the SignerInfo names its signature algorithm.
    public struct SignerAlgorithm: Sendable, Hashable {
        let namesDigest: Bool
        /// Plain `rsaEncryption` (1.2.840.113549.1.1.1), as Apple's receipts do.
        public static let rsaEncryption = SignerAlgorithm(namesDigest: false)
        /// `sha1WithRSAEncryption` or `sha256WithRSAEncryption`, matching the digest, as Xcode's receipts do.
        public static let digestWithRSAEncryption = SignerAlgorithm(namesDigest: true)
    }

    /// The wire layout of a minted receipt.
    public struct Style: Sendable, Hashable {
        let isXcode: Bool
        /// DER definite lengths, SignerInfo naming plain `rsaEncryption`, as the App Store writes.
        public static let appStore = Style(isXcode: false)
        /// BER indefinite lengths, the payload OCTET STRING wrapped twice, `sha256WithRSAEncryption`, as Xcode writes.
        public static let xcode = Style(isXcode: true)
    }

    /// The content digest of a minted receipt.
    public struct Digest: Sendable, Hashable {
        let isSHA1: Bool
        public static let sha1 = Digest(isSHA1: true)
        public static let sha256 = Digest(isSHA1: false)
    }

    /// A defect introduced on purpose.
    public struct Fault: Sendable, Hashable {
        let kind: Int
        /// The signature bytes are altered after signing.
        public static let corruptSignature = Fault(kind: 1)
        /// One byte of the payload is altered after signing.
        public static let alterContentAfterSigning = Fault(kind: 2)
        /// The encoded receipt is cut in half.
        public static let truncate = Fault(kind: 3)
        /// Signed attributes whose message-digest is not the content's digest, under a valid signature.
        public static let wrongMessageDigest = Fault(kind: 4)
        /// Two message-digest attributes, a wrong one and then the right one, under a valid signature.
        public static let duplicateMessageDigest = Fault(kind: 5)
        /// Signed attributes without a content-type attribute, under a valid signature.
        public static let missingContentType = Fault(kind: 6)
        /// Two content-type attributes (both id-data), under a valid signature.
        public static let duplicateContentType = Fault(kind: 7)

        /// Whether the fault is in the signed attributes, which it then adds whatever ``Options/signedAttributes`` says.
        var isInSignedAttributes: Bool { (4...7).contains(self.kind) }
    }

    /// Returns `receipt` with attribute 5 set to SHA-1(device ‖ opaque value ‖ bundle id bytes), as Apple computes it.
    /// The receipt needs an opaque value and a bundle identifier; without them it is returned unchanged.
    public static func settingDeviceHash(of receipt: AppReceipt, for device: DeviceIdentifier) -> AppReceipt {
        var receipt = receipt
        guard let opaque = receipt.opaqueValue else { return receipt }
        let bundle = receipt.bundleIdentifierData ?? receipt.bundleIdentifier.map(DEREncoding.utf8String)
        guard let bundle else { return receipt }
        var hasher = Insecure.SHA1()
        hasher.update(data: device.bytes)
        hasher.update(data: opaque)
        hasher.update(data: bundle)
        receipt.sha1Hash = Array(hasher.finalize())
        return receipt
    }

    /// A purchase from the compact spec `receiptkit mint receipt --purchase` takes:
    /// `product_id[,transaction_id[,quantity]]`, then any of `;key=value` for subscriptions and refunds —
    /// `original=ID` (the original transaction id; default the transaction's own), `purchased=TIME` (default `date`),
    /// `original_purchased=TIME` (default the purchase date), `expires=TIME` (makes it an auto-renewable
    /// subscription, product type 3), `cancelled=TIME` (a refund or revocation), `trial=true|false`,
    /// `intro=true|false`, `web_order=DIGITS`, `type=DIGITS` (the product type attribute); TIME is RFC 3339.
    ///
    /// ```
    /// com.example.monthly,1000000001;original=1000000000;purchased=2025-06-01T00:00:00Z;expires=2025-07-01T00:00:00Z
    /// ```
    ///
    /// - Parameters:
    ///   - spec: The spec text.
    ///   - date: The purchase and original purchase date, unless the spec gives them.
    /// - Throws: ``MintingError`` with ``MintingError/Code/malformedPurchaseSpec`` for an empty product or
    ///   transaction id, a quantity that is not a whole number from 1 to 2⁶³−1, more than three parts, an unknown or
    ///   repeated key, or a value of the wrong kind.
    public static func purchase(spec: String, date: Date?) throws(MintingError) -> InAppPurchase {
        let sections = spec.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let head = sections.first ?? ""
        let parts = head.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), let product = parts.first, !product.isEmpty else {
            throw MintingError(.malformedPurchaseSpec, "'\(spec)' is not product_id[,transaction_id[,quantity]][;key=value]…")
        }
        let transaction = parts.count > 1 ? parts[1] : nil
        if let transaction, transaction.isEmpty {
            throw MintingError(.malformedPurchaseSpec, "'\(spec)': the transaction id is empty")
        }
        var quantity: Int64 = 1
        if parts.count > 2 {
            guard let parsed = Int64(parts[2]), parsed >= 1 else {
                throw MintingError(.malformedPurchaseSpec, "'\(spec)': the quantity '\(parts[2])' is not a whole number ≥ 1")
            }
            quantity = parsed
        }
        var purchase = InAppPurchase(
            quantity: quantity,
            productIdentifier: product,
            transactionIdentifier: transaction,
            purchaseDate: date,
            originalTransactionIdentifier: transaction,
            originalPurchaseDate: date
        )
        var seen = Set<String>()
        var originalPurchase: Date?
        for attribute in sections.dropFirst() {
            guard let equals = attribute.firstIndex(of: "=") else {
                throw MintingError(.malformedPurchaseSpec, "'\(spec)': '\(attribute)' is not key=value")
            }
            let key = String(attribute[..<equals])
            let value = String(attribute[attribute.index(after: equals)...])
            guard seen.insert(key).inserted else {
                throw MintingError(.malformedPurchaseSpec, "'\(spec)': \(key) is given twice")
            }
            func time() throws(MintingError) -> Date {
                guard let parsed = RFC3339.date(value) else {
                    throw MintingError(.malformedPurchaseSpec, "'\(spec)': \(key) takes an RFC 3339 time, not '\(value)'")
                }
                return parsed
            }
            func flag() throws(MintingError) -> Bool {
                guard value == "true" || value == "false" else {
                    throw MintingError(.malformedPurchaseSpec, "'\(spec)': \(key) takes true or false, not '\(value)'")
                }
                return value == "true"
            }
            func digits() throws(MintingError) -> Int64 {
                guard let parsed = Int64(value), parsed >= 0 else {
                    throw MintingError(.malformedPurchaseSpec, "'\(spec)': \(key) takes a whole number, not '\(value)'")
                }
                return parsed
            }
            switch key {
            case "original":
                guard !value.isEmpty else { throw MintingError(.malformedPurchaseSpec, "'\(spec)': original is empty") }
                purchase.originalTransactionIdentifier = value
            case "purchased": purchase.purchaseDate = try time()
            case "original_purchased": originalPurchase = try time()
            case "expires":
                purchase.expiresDate = try time()
                if purchase.productType == nil { purchase.productType = 3 }
            case "cancelled": purchase.cancellationDate = try time()
            case "trial": purchase.isTrialPeriod = try flag()
            case "intro": purchase.isInIntroOfferPeriod = try flag()
            case "web_order": purchase.webOrderLineItemIdentifier = try digits()
            case "type": purchase.productType = try digits()
            default:
                throw MintingError(
                    .malformedPurchaseSpec,
                    "'\(spec)': unknown key '\(key)' (original, purchased, original_purchased, expires, cancelled, trial, "
                        + "intro, web_order, type)")
            }
        }
        purchase.originalPurchaseDate = originalPurchase ?? purchase.purchaseDate
        return purchase
    }

    /// Sixteen random bytes: an opaque value (attribute 4) of the size Apple's have.
    public static func randomOpaqueValue() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The DER payload (`SET OF ReceiptAttribute`) of `receipt`, unsigned.
    public static func payload(_ receipt: AppReceipt) -> [UInt8] {
        ReceiptPayloadEncoder.encode(receipt)
    }

    /// Signs `receipt` and wraps it in a CMS `SignedData` container.
    public static func mint(_ receipt: AppReceipt, signer: ReceiptSigner, options: Options = Options()) throws -> [UInt8] {
        try Self.wrap(payload: Self.payload(receipt), signer: signer, options: options)
    }

    /// Signs arbitrary payload bytes and wraps them in a CMS `SignedData` container — for tests of payloads the
    /// model cannot express (malformed attributes, hostile lengths).
    public static func wrap(payload: [UInt8], signer: ReceiptSigner, options: Options = Options()) throws -> [UInt8] {
        var payload = payload
        let digestOID: [UInt64] = options.digest.isSHA1 ? [1, 3, 14, 3, 2, 26] : [2, 16, 840, 1, 101, 3, 4, 2, 1]
        let namesDigest = (options.signerAlgorithm ?? (options.style.isXcode ? .digestWithRSAEncryption : .rsaEncryption))
            .namesDigest
        let signatureOID: [UInt64] =
            namesDigest
            ? (options.digest.isSHA1 ? [1, 2, 840, 113_549, 1, 1, 5] : [1, 2, 840, 113_549, 1, 1, 11])
            : [1, 2, 840, 113_549, 1, 1, 1]
        let dataOID = DERWriter.objectIdentifier([1, 2, 840, 113_549, 1, 7, 1])

        var signedAttributes: [UInt8]?
        var signedBytes = payload
        if options.signedAttributes || options.fault?.isInSignedAttributes == true {
            let digest = Self.digest(payload, options.digest)
            var wrongDigest = digest
            wrongDigest[0] ^= 0xFF
            let contentType = DERWriter.definite(
                0x30,
                DERWriter.objectIdentifier([1, 2, 840, 113_549, 1, 9, 3]) + DERWriter.definite(0x31, dataOID)
            )
            func messageDigest(_ value: [UInt8]) -> [UInt8] {
                DERWriter.definite(
                    0x30,
                    DERWriter.objectIdentifier([1, 2, 840, 113_549, 1, 9, 4])
                        + DERWriter.definite(0x31, DERWriter.definite(0x04, value))
                )
            }
            let attributes: [UInt8]
            switch options.fault {
            case Fault.wrongMessageDigest?: attributes = contentType + messageDigest(wrongDigest)
            case Fault.duplicateMessageDigest?: attributes = contentType + messageDigest(wrongDigest) + messageDigest(digest)
            case Fault.missingContentType?: attributes = messageDigest(digest)
            case Fault.duplicateContentType?: attributes = contentType + contentType + messageDigest(digest)
            default: attributes = contentType + messageDigest(digest)
            }
            let set = DERWriter.definite(0x31, attributes)
            signedBytes = set
            signedAttributes = [0xA0] + set.dropFirst()
        }
        var signature = try Self.sign(signedBytes, options.digest, signer.identity.privateKey)

        switch options.fault {
        case Fault.corruptSignature?:
            signature[signature.count / 2] ^= 0x01
        case Fault.alterContentAfterSigning?:
            payload[payload.count - 1] ^= 0x01
        default:
            break
        }

        var issuer = DER.Serializer()
        try issuer.serialize(signer.identity.certificate.issuer)
        var serialBytes = Array(signer.identity.certificate.serialNumber.bytes)
        if let first = serialBytes.first, first & 0x80 != 0 { serialBytes.insert(0, at: 0) }
        let serial = DERWriter.definite(0x02, serialBytes)
        let signerInfo = DERWriter.definite(
            0x30,
            DERWriter.integer(1)
                + DERWriter.definite(0x30, issuer.serializedBytes + serial)
                + DERWriter.algorithm(digestOID)
                + (signedAttributes ?? [])
                + DERWriter.algorithm(signatureOID)
                + DERWriter.definite(0x04, signature)
        )
        var certificates: [UInt8] = []
        if let raw = options.rawCertificates {
            certificates = raw.flatMap { $0 }
        } else {
            for certificate in signer.certificates {
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                certificates += serializer.serializedBytes
            }
        }

        let x = options.style.isXcode
        func constructed(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            x ? DERWriter.indefinite(tag, content) : DERWriter.definite(tag, content)
        }
        let eContent =
            x
            ? DERWriter.indefinite(0x24, DERWriter.definite(0x04, payload))
            : DERWriter.definite(0x04, payload)
        let encapsulated = constructed(0x30, dataOID + constructed(0xA0, eContent))
        let signedData = constructed(
            0x30,
            DERWriter.integer(1)
                + DERWriter.definite(0x31, DERWriter.algorithm(digestOID))
                + encapsulated
                + (certificates.isEmpty ? [] : DERWriter.definite(0xA0, certificates))
                + DERWriter.definite(0x31, signerInfo)
        )
        let encoded = constructed(
            0x30,
            DERWriter.objectIdentifier([1, 2, 840, 113_549, 1, 7, 2]) + constructed(0xA0, signedData)
        )
        if options.fault == .truncate {
            return Array(encoded.prefix(encoded.count / 2))
        }
        return encoded
    }

    private static func digest(_ bytes: [UInt8], _ digest: Digest) -> [UInt8] {
        digest.isSHA1 ? Array(Insecure.SHA1.hash(data: bytes)) : Array(SHA256.hash(data: bytes))
    }

    private static func sign(_ bytes: [UInt8], _ digest: Digest, _ key: _RSA.Signing.PrivateKey) throws -> [UInt8] {
        let padding = _RSA.Signing.Padding.insecurePKCS1v1_5
        let signature =
            digest.isSHA1
            ? try key.signature(for: Insecure.SHA1.hash(data: bytes), padding: padding)
            : try key.signature(for: SHA256.hash(data: bytes), padding: padding)
        return Array(signature.rawRepresentation)
    }
}
