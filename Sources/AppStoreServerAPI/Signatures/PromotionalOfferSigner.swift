public import Crypto
public import Foundation

/// The signature of a promotional offer, version 1: what StoreKit's `Product.PurchaseOption.promotionalOffer(offerID:
/// keyID:nonce:signature:timestamp:)` (and `SKPaymentDiscount`) carries, made by the app's server with the In-App
/// Purchase (subscription offer) key, as Apple documents in "Generating a signature for promotional offers".
///
/// The signed text joins, with U+2063 INVISIBLE SEPARATOR, the bundle id, the key id, the product id, the offer id,
/// the app account token and the nonce (both lower-cased) and the timestamp (milliseconds); the signature is ECDSA
/// P-256 with SHA-256, DER, base64.
///
/// ```swift
/// let signer = try PromotionalOfferSigner(keyID: "2X9R4HXF34", pemRepresentation: p8Text, bundleIdentifier: "com.example.app")
/// let signature = try signer.signature(productIdentifier: "com.example.app.pro", offerIdentifier: "WINBACK",
///                                      appAccountToken: "", nonce: UUID(), timestamp: 1_698_148_900_000)
/// ```
public struct PromotionalOfferSigner: Sendable {
    /// The separator Apple joins the signed fields with (U+2063 INVISIBLE SEPARATOR).
    public static let separator: Character = "\u{2063}"

    /// The key id (`keyIdentifier` in StoreKit).
    public let keyID: String
    /// The app's bundle id.
    public let bundleIdentifier: String
    private let signingKey: P256.Signing.PrivateKey

    /// A signer with the key's id and its private half.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when the key id
    ///   or the bundle id is empty.
    public init(keyID: String, privateKey: P256.Signing.PrivateKey, bundleIdentifier: String) throws(AppStoreServerAPIError) {
        guard !keyID.isEmpty, !bundleIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the key id and the bundle id must not be empty")
        }
        self.keyID = keyID
        self.signingKey = privateKey
        self.bundleIdentifier = bundleIdentifier
    }

    /// A signer with an In-App Purchase key (its issuer id is not part of a version 1 signature).
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` for an empty
    ///   bundle id.
    public init(key: AppStoreServerAPIKey, bundleIdentifier: String) throws(AppStoreServerAPIError) {
        try self.init(keyID: key.keyID, privateKey: key.signingKey, bundleIdentifier: bundleIdentifier)
    }

    /// A signer with the key's id and the text of its `.p8` file.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidPrivateKey`` when the text is not
    ///   a PEM PKCS#8 P-256 key (the reason never quotes it), or as ``init(keyID:privateKey:bundleIdentifier:)``.
    public init(keyID: String, pemRepresentation: String, bundleIdentifier: String) throws(AppStoreServerAPIError) {
        try self.init(
            keyID: keyID, privateKey: try AppStoreServerAPIKey.privateKey(pemRepresentation: pemRepresentation),
            bundleIdentifier: bundleIdentifier)
    }

    /// The text that is signed, exactly.
    public func signedText(
        productIdentifier: String, offerIdentifier: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> String {
        [
            self.bundleIdentifier, self.keyID, productIdentifier, offerIdentifier, appAccountToken.lowercased(),
            nonce.uuidString.lowercased(), String(timestamp),
        ].joined(separator: String(Self.separator))
    }

    /// The base64 DER signature of ``signedText(productIdentifier:offerIdentifier:appAccountToken:nonce:timestamp:)``.
    /// - Parameters:
    ///   - productIdentifier: The subscription's product id.
    ///   - offerIdentifier: The promotional offer's id (App Store Connect).
    ///   - appAccountToken: The app account token the purchase will carry (a UUID), or `""` for none.
    ///   - nonce: A fresh UUID for this purchase; StoreKit sends it back.
    ///   - timestamp: Milliseconds since 1970 (the caller's clock); Apple accepts the signature for 24 hours.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` for an empty
    ///   product or offer id.
    public func signature(
        productIdentifier: String, offerIdentifier: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) throws(AppStoreServerAPIError) -> String {
        guard !productIdentifier.isEmpty, !offerIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the product id and the offer id must not be empty")
        }
        let text = self.signedText(
            productIdentifier: productIdentifier, offerIdentifier: offerIdentifier, appAccountToken: appAccountToken,
            nonce: nonce, timestamp: timestamp)
        do {
            return try self.signingKey.signature(for: SHA256.hash(data: Array(text.utf8))).derRepresentation
                .base64EncodedString()
        } catch {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key could not sign")
        }
    }
}
