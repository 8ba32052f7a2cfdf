import AppStoreJWS

/// The body of Send Consumption Information **V1** (`ConsumptionRequestV1`, `PUT /inApps/v1/transactions/consumption/…`),
/// which Apple has replaced with V2 (``ConsumptionRequest``): kept for servers that still send it. What you know
/// about a consumable or an auto-renewable subscription a customer asks a refund for, answered after a
/// `CONSUMPTION_REQUEST` notification, each value one of Apple's integer codes. Send it only when
/// ``customerConsented`` is `true`.
public struct ConsumptionRequestV1: Sendable, Hashable {
    /// `customerConsented`.
    public var customerConsented: Bool
    /// `consumptionStatus`.
    public var consumptionStatus: ConsumptionStatus
    /// `platform`.
    public var platform: ConsumptionPlatform
    /// `sampleContentProvided`.
    public var sampleContentProvided: Bool
    /// `deliveryStatus`.
    public var deliveryStatus: DeliveryStatusV1
    /// `appAccountToken`: the UUID, or the empty string for none.
    public var appAccountToken: String
    /// `accountTenure`.
    public var accountTenure: AccountTenure
    /// `playTime`.
    public var playTime: PlayTime
    /// `lifetimeDollarsRefunded`.
    public var lifetimeDollarsRefunded: LifetimeDollars
    /// `lifetimeDollarsPurchased`.
    public var lifetimeDollarsPurchased: LifetimeDollars
    /// `userStatus`.
    public var userStatus: UserStatus
    /// `refundPreference`; `nil` to leave it out.
    public var refundPreference: RefundPreferenceV1?

    public init(
        customerConsented: Bool,
        consumptionStatus: ConsumptionStatus = .undeclared,
        platform: ConsumptionPlatform = .undeclared,
        sampleContentProvided: Bool = false,
        deliveryStatus: DeliveryStatusV1 = .deliveredAndWorking,
        appAccountToken: String = "",
        accountTenure: AccountTenure = .undeclared,
        playTime: PlayTime = .undeclared,
        lifetimeDollarsRefunded: LifetimeDollars = .undeclared,
        lifetimeDollarsPurchased: LifetimeDollars = .undeclared,
        userStatus: UserStatus = .undeclared,
        refundPreference: RefundPreferenceV1? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "customerConsented": .bool(self.customerConsented),
            "consumptionStatus": .number(JSONNumber(self.consumptionStatus.rawValue)),
            "platform": .number(JSONNumber(self.platform.rawValue)),
            "sampleContentProvided": .bool(self.sampleContentProvided),
            "deliveryStatus": .number(JSONNumber(self.deliveryStatus.rawValue)),
            "appAccountToken": .string(self.appAccountToken),
            "accountTenure": .number(JSONNumber(self.accountTenure.rawValue)),
            "playTime": .number(JSONNumber(self.playTime.rawValue)),
            "lifetimeDollarsRefunded": .number(JSONNumber(self.lifetimeDollarsRefunded.rawValue)),
            "lifetimeDollarsPurchased": .number(JSONNumber(self.lifetimeDollarsPurchased.rawValue)),
            "userStatus": .number(JSONNumber(self.userStatus.rawValue)),
        ]
        if let refundPreference { members["refundPreference"] = .number(JSONNumber(refundPreference.rawValue)) }
        return .object(members)
    }
}
