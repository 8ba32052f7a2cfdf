import AppStoreJWS
public import Foundation

/// The JWS an app's server signs for StoreKit with its In-App Purchase key, as Apple's App Store Server Library
/// makes them: a promotional offer (version 2, `aud` `promotional-offer`), an introductory offer's eligibility
/// (`introductory-offer-eligibility`) and an Advanced Commerce API in-app request (`advanced-commerce-api`).
///
/// Each is a compact JWT signed ES256: header `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss` (the issuer id),
/// `bid` (the bundle id), `aud`, `iat` (seconds), `nonce` (a UUID, lower-case as Apple's Python library writes it)
/// and the request's own fields; no `exp`. Time and the nonce are the caller's, so tests pin them.
///
/// ```swift
/// let signer = try StoreKitRequestSigner(key: key, bundleIdentifier: "com.example.app")
/// let jws = try signer.promotionalOffer(productIdentifier: "com.example.app.pro", offerIdentifier: "WINBACK",
///                                       nonce: UUID(), now: Date())
/// ```
public struct StoreKitRequestSigner: Sendable {
    /// The audience of a promotional offer, version 2.
    public static let promotionalOfferAudience = "promotional-offer"
    /// The audience of an introductory offer eligibility.
    public static let introductoryOfferEligibilityAudience = "introductory-offer-eligibility"
    /// The audience of an Advanced Commerce API in-app request.
    public static let advancedCommerceAudience = "advanced-commerce-api"
    /// The largest Advanced Commerce request signed: 64 KiB of JSON.
    public static let maximumRequestSize = 64 * 1024

    /// The key that signs (issuer id, key id, private key).
    public let key: AppStoreServerAPIKey
    /// The app's bundle id (`bid`).
    public let bundleIdentifier: String

    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` for an empty
    ///   bundle id.
    public init(key: AppStoreServerAPIKey, bundleIdentifier: String) throws(AppStoreServerAPIError) {
        guard !bundleIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the bundle id must not be empty")
        }
        self.key = key
        self.bundleIdentifier = bundleIdentifier
    }

    /// A promotional offer, version 2: `productId`, `offerIdentifier` and, when given, the `transactionId` of the
    /// customer's subscription.
    public func promotionalOffer(
        productIdentifier: String, offerIdentifier: String, transactionIdentifier: String? = nil, nonce: UUID, now: Date
    ) throws(AppStoreServerAPIError) -> String {
        guard !productIdentifier.isEmpty, !offerIdentifier.isEmpty, transactionIdentifier?.isEmpty != true else {
            throw AppStoreServerAPIError(
                .invalidConfiguration, "the product id, the offer id and a transaction id given must not be empty")
        }
        var claims: [String: JSONValue] = [
            "productId": .string(productIdentifier), "offerIdentifier": .string(offerIdentifier),
        ]
        if let transactionIdentifier { claims["transactionId"] = .string(transactionIdentifier) }
        return try self.sign(claims, audience: Self.promotionalOfferAudience, nonce: nonce, now: now)
    }

    /// Whether the customer of `transactionIdentifier` may have `productIdentifier`'s introductory offer
    /// (`allowIntroductoryOffer`).
    public func introductoryOfferEligibility(
        productIdentifier: String, allowsIntroductoryOffer: Bool, transactionIdentifier: String, nonce: UUID, now: Date
    ) throws(AppStoreServerAPIError) -> String {
        guard !productIdentifier.isEmpty, !transactionIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the product id and the transaction id must not be empty")
        }
        return try self.sign(
            [
                "productId": .string(productIdentifier), "allowIntroductoryOffer": .bool(allowsIntroductoryOffer),
                "transactionId": .string(transactionIdentifier),
            ],
            audience: Self.introductoryOfferEligibilityAudience, nonce: nonce, now: now)
    }

    /// An Advanced Commerce API in-app request: `request` is the request's JSON object (as Apple's library encodes
    /// its request types), carried base64 in the `request` claim, byte for byte.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` when `request` is not one JSON object or is
    ///   larger than ``maximumRequestSize``.
    public func advancedCommerceInAppRequest(
        _ request: [UInt8], nonce: UUID, now: Date
    ) throws(AppStoreServerAPIError) -> String {
        guard request.count <= Self.maximumRequestSize else {
            throw AppStoreServerAPIError(
                .invalidConfiguration, "the Advanced Commerce request is over \(Self.maximumRequestSize) bytes")
        }
        guard case .object? = try? JSONValue(jsonEncoded: request) else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the Advanced Commerce request is not a JSON object")
        }
        return try self.sign(
            ["request": .string(Data(request).base64EncodedString())], audience: Self.advancedCommerceAudience,
            nonce: nonce, now: now)
    }

    private func sign(
        _ fields: [String: JSONValue], audience: String, nonce: UUID, now: Date
    ) throws(AppStoreServerAPIError) -> String {
        let seconds = now.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the clock's time is not a representable instant")
        }
        var claims = fields
        claims["iss"] = .string(self.key.issuerID)
        claims["bid"] = .string(self.bundleIdentifier)
        claims["aud"] = .string(audience)
        claims["iat"] = .number(JSONNumber(Int64(seconds)))
        claims["nonce"] = .string(nonce.uuidString.lowercased())
        return try ES256JWT.sign(claims, keyID: self.key.keyID, with: self.key.signingKey)
    }
}
