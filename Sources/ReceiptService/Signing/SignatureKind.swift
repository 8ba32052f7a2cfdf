/// What `POST /v1/sign/{kind}` signs, named as the path names it.
enum SignatureKind: String, Sendable, CaseIterable {
    /// A promotional offer, version 1 (base64 DER).
    case promotionalOffer = "promotional-offer"
    /// A promotional offer, version 2 (JWS).
    case promotionalOfferV2 = "promotional-offer-v2"
    /// An introductory offer's eligibility (JWS).
    case introEligibility = "intro-eligibility"
    /// An Advanced Commerce API in-app request (JWS).
    case advancedCommerce = "advanced-commerce"

    /// The body members each kind takes (`bundle_id` and `nonce` besides); `required` are needed.
    var members: (required: Set<String>, optional: Set<String>) {
        switch self {
        case .promotionalOffer: return (["product_id", "offer_id"], ["app_account_token", "timestamp"])
        case .promotionalOfferV2: return (["product_id", "offer_id"], ["transaction_id"])
        case .introEligibility: return (["product_id", "allow_intro_offer", "transaction_id"], [])
        case .advancedCommerce: return (["request"], [])
        }
    }
}
