import AppStoreJWS

/// The offer a transaction was bought under (`offerType`, `offerDiscountType`, `offerIdentifier`; a receipt's
/// `is_trial_period`, `is_in_intro_offer_period`, `promotional_offer_id` and `offer_code_ref_name`).
///
/// Apple: "offerType" (https://developer.apple.com/documentation/appstoreserverapi/offertype) — 1 introductory
/// offer, 2 promotional offer, 3 offer code, 4 win-back offer; an introductory offer with `offerDiscountType`
/// `FREE_TRIAL` is a free trial.
struct PurchaseOffer: Sendable, Hashable {
    /// `free_trial`, `introductory`, `promotional`, `offer_code` or `win_back` (`other` for a type this version does
    /// not know).
    let kind: String
    /// The offer's identifier (a promotional offer's, an offer code's reference name), when there is one.
    let identifier: String?

    /// The offer `offerType`, `offerDiscountType` and `offerIdentifier` describe; `nil` without an offer type.
    init?(type: OfferType?, discount: OfferDiscountType?, identifier: String?) {
        guard let type else { return nil }
        switch type {
        case .introductoryOffer: self.kind = discount == .freeTrial ? "free_trial" : "introductory"
        case .promotionalOffer: self.kind = "promotional"
        case .offerCode: self.kind = "offer_code"
        case .winBackOffer: self.kind = "win_back"
        default: self.kind = "other"
        }
        self.identifier = identifier
    }

    init(kind: String, identifier: String?) {
        self.kind = kind
        self.identifier = identifier
    }

    /// `{"type": …, "identifier": …}`.
    var json: JSONValue {
        var members: [String: JSONValue] = ["type": .string(self.kind)]
        if let identifier = self.identifier { members["identifier"] = .string(identifier) }
        return .object(members)
    }
}
