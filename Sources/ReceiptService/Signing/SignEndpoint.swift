import AppStoreJWS
import AppStoreServerAPI
import Foundation

/// `POST /v1/sign/{promotional-offer,promotional-offer-v2,intro-eligibility,advanced-commerce}` behind the admin
/// token: the signatures an app's server makes for StoreKit, with the configured app's In-App Purchase key, for app
/// backends not written in Swift.
///
/// The body is a JSON object: `bundle_id` (a configured app with a private key) and the kind's members —
/// `product_id`, `offer_id`, `app_account_token`, `timestamp` (milliseconds; the service's clock by default) for
/// a version 1 offer; `product_id`, `offer_id`, `transaction_id` for version 2; `product_id`, `allow_intro_offer`
/// (a boolean), `transaction_id` for eligibility; `request` (the Advanced Commerce request's JSON object) — and
/// optionally `nonce` (a UUID; a fresh one by default). The answer: `{"signature": …, "nonce": …}` (and
/// `"timestamp"` for version 1), or a refusal `{"status": …, "reasons": […], "reason": …}` as the entitlements
/// endpoint's: 401 `admin_token_refused`, 400 `malformed_body` / `unknown_parameter` / `missing_parameter` /
/// `invalid_parameter`, 404 `app_key_not_configured`.
struct SignEndpoint: Sendable {
    let tokens: AdminTokens
    /// Each app with a private key, by bundle id.
    let keys: [String: AppStoreServerAPIKey]
    let now: @Sendable () -> Date

    init(tokens: AdminTokens, apps: [AppStoreServerAPIAppConfiguration], now: @escaping @Sendable () -> Date) {
        self.tokens = tokens
        var keys: [String: AppStoreServerAPIKey] = [:]
        for app in apps {
            if let key = (app.production ?? app.sandbox)?.key { keys[app.bundleIdentifier] = key }
        }
        self.keys = keys
        self.now = now
    }

    /// Whether `authorization` carries an admin token (checked before the body is read).
    func admits(_ authorization: String?) -> Bool { self.tokens.admits(authorization) }

    static let unauthorized = EntitlementAnswer.refused(
        EntitlementRefusal(.unauthorized, .adminTokenRefused, "an admin token is required (Authorization: Bearer …)"))

    /// The answer to a body of `kind`; `nonce` is used when the body names none.
    func answer(_ kind: SignatureKind, body: [UInt8], nonce fresh: UUID) -> EntitlementAnswer {
        do throws(EntitlementRefusal) {
            return .answered(try self.sign(kind, body: body, nonce: fresh))
        } catch {
            return .refused(error)
        }
    }

    private func sign(_ kind: SignatureKind, body: [UInt8], nonce fresh: UUID) throws(EntitlementRefusal) -> [String: JSONValue] {
        guard case .object(let members)? = try? JSONValue(jsonEncoded: body) else {
            throw EntitlementRefusal(.malformed, .malformedBody, "the body is not a JSON object")
        }
        let (required, optional) = kind.members
        let known = required.union(optional).union(["bundle_id", "nonce"])
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw EntitlementRefusal(.malformed, .unknownParameter, "unknown member \(unknown) for \(kind.rawValue)")
        }
        if let missing = (required.union(["bundle_id"])).sorted().first(where: { members[$0] == nil }) {
            throw EntitlementRefusal(.malformed, .missingParameter, "\(missing) is required for \(kind.rawValue)")
        }
        func string(_ name: String) throws(EntitlementRefusal) -> String? {
            guard let value = members[name] else { return nil }
            guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 256 else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "\(name) must be a string of 1 to 256 bytes")
            }
            return text
        }
        let bundle = try string("bundle_id") ?? ""
        guard let key = self.keys[bundle] else {
            throw EntitlementRefusal(
                .notFound, .appKeyNotConfigured,
                "no private key is configured for \(bundle) (app_store_server_api, private_key_file)")
        }
        var nonce = fresh
        if let given = try string("nonce") {
            guard let parsed = UUID(uuidString: given) else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "nonce must be a UUID")
            }
            nonce = parsed
        }
        var answer: [String: JSONValue] = ["nonce": .string(nonce.uuidString.lowercased())]
        /// What the signer refuses (an empty id) is the request's.
        func signed(_ sign: () throws(AppStoreServerAPIError) -> String) throws(EntitlementRefusal) -> JSONValue {
            do throws(AppStoreServerAPIError) {
                return .string(try sign())
            } catch {
                throw EntitlementRefusal(.malformed, .invalidParameter, error.reason)
            }
        }
        let product = try string("product_id") ?? ""
        let transaction = try string("transaction_id")
        switch kind {
        case .promotionalOffer:
            var timestamp = Int64((self.now().timeIntervalSince1970 * 1000).rounded(.down))
            if let given = members["timestamp"] {
                guard case .number(let number) = given, let value = number.int64, value >= 0 else {
                    throw EntitlementRefusal(.malformed, .invalidParameter, "timestamp must be milliseconds since 1970")
                }
                timestamp = value
            }
            // Any string up to 256 bytes, "" for none: Apple's library signs what StoreKit 1's applicationUsername held.
            var token = ""
            if let given = members["app_account_token"] {
                guard case .string(let text) = given, text.utf8.count <= 256 else {
                    throw EntitlementRefusal(.malformed, .invalidParameter, "app_account_token must be a string of at most 256 bytes")
                }
                token = text
            }
            let offer = try string("offer_id") ?? ""
            answer["signature"] = try signed { () throws(AppStoreServerAPIError) in
                try PromotionalOfferSigner(key: key, bundleIdentifier: bundle).signature(
                    productIdentifier: product, offerIdentifier: offer, appAccountToken: token, nonce: nonce,
                    timestamp: timestamp)
            }
            answer["timestamp"] = .number(JSONNumber(timestamp))
        case .promotionalOfferV2:
            let offer = try string("offer_id") ?? ""
            answer["signature"] = try signed { () throws(AppStoreServerAPIError) in
                try StoreKitRequestSigner(key: key, bundleIdentifier: bundle).promotionalOffer(
                    productIdentifier: product, offerIdentifier: offer, transactionIdentifier: transaction,
                    nonce: nonce, now: self.now())
            }
        case .introEligibility:
            guard case .bool(let allows)? = members["allow_intro_offer"] else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "allow_intro_offer must be true or false")
            }
            answer["signature"] = try signed { () throws(AppStoreServerAPIError) in
                try StoreKitRequestSigner(key: key, bundleIdentifier: bundle).introductoryOfferEligibility(
                    productIdentifier: product, allowsIntroductoryOffer: allows,
                    transactionIdentifier: transaction ?? "", nonce: nonce, now: self.now())
            }
        case .advancedCommerce:
            guard let request = members["request"], case .object = request else {
                throw EntitlementRefusal(.malformed, .invalidParameter, "request must be a JSON object")
            }
            answer["signature"] = try signed { () throws(AppStoreServerAPIError) in
                try StoreKitRequestSigner(key: key, bundleIdentifier: bundle).advancedCommerceInAppRequest(
                    request.serialized, nonce: nonce, now: self.now())
            }
        }
        return answer
    }
}
