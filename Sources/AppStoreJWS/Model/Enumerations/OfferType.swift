/// The kind of offer a transaction or a renewal is under (`offerType`).
public struct OfferType: AppStoreEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 1: an introductory offer (a free trial or an introductory price).
    public static let introductoryOffer = OfferType(rawValue: 1)

    /// 2: a promotional offer.
    public static let promotionalOffer = OfferType(rawValue: 2)

    /// 3: an offer code.
    public static let offerCode = OfferType(rawValue: 3)

    /// 4: a win-back offer.
    public static let winBackOffer = OfferType(rawValue: 4)
}
