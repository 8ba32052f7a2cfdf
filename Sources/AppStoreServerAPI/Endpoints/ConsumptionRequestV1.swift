import AppStoreJWS

/// The body of Send Consumption Information (`ConsumptionRequest`): what you know about a consumable, a
/// non-renewing subscription or an auto-renewable subscription a customer asks a refund for, answered after a
/// `CONSUMPTION_REQUEST` notification. Each value is Apple's documented code; ``customerConsented`` must be `true`.
public struct ConsumptionRequest: Sendable, Hashable {
    /// `customerConsented`.
    public var customerConsented: Bool
    /// `consumptionStatus`: 0 undeclared, 1 not consumed, 2 partially consumed, 3 fully consumed.
    public var consumptionStatus: Int64
    /// `platform`: 0 undeclared, 1 Apple, 2 non-Apple.
    public var platform: Int64
    /// `sampleContentProvided`.
    public var sampleContentProvided: Bool
    /// `deliveryStatus`: 0 delivered and working, 1–5 the documented delivery problems.
    public var deliveryStatus: Int64
    /// `appAccountToken`: the UUID, or the empty string for none.
    public var appAccountToken: String
    /// `accountTenure`: 0 undeclared, 1–7 the documented ranges of days.
    public var accountTenure: Int64
    /// `playTime`: 0 undeclared, 1–7 the documented ranges.
    public var playTime: Int64
    /// `lifetimeDollarsRefunded`: 0 undeclared, 1–7 the documented ranges.
    public var lifetimeDollarsRefunded: Int64
    /// `lifetimeDollarsPurchased`: 0 undeclared, 1–7 the documented ranges.
    public var lifetimeDollarsPurchased: Int64
    /// `userStatus`: 0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access.
    public var userStatus: Int64
    /// `refundPreference`: 0 undeclared, 1 grant, 2 decline, 3 no preference; `nil` to leave it out.
    public var refundPreference: Int64?

    public init(
        customerConsented: Bool,
        consumptionStatus: Int64 = 0,
        platform: Int64 = 0,
        sampleContentProvided: Bool = false,
        deliveryStatus: Int64 = 0,
        appAccountToken: String = "",
        accountTenure: Int64 = 0,
        playTime: Int64 = 0,
        lifetimeDollarsRefunded: Int64 = 0,
        lifetimeDollarsPurchased: Int64 = 0,
        userStatus: Int64 = 0,
        refundPreference: Int64? = nil
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
            "consumptionStatus": .number(JSONNumber(self.consumptionStatus)),
            "platform": .number(JSONNumber(self.platform)),
            "sampleContentProvided": .bool(self.sampleContentProvided),
            "deliveryStatus": .number(JSONNumber(self.deliveryStatus)),
            "appAccountToken": .string(self.appAccountToken),
            "accountTenure": .number(JSONNumber(self.accountTenure)),
            "playTime": .number(JSONNumber(self.playTime)),
            "lifetimeDollarsRefunded": .number(JSONNumber(self.lifetimeDollarsRefunded)),
            "lifetimeDollarsPurchased": .number(JSONNumber(self.lifetimeDollarsPurchased)),
            "userStatus": .number(JSONNumber(self.userStatus)),
        ]
        if let refundPreference { members["refundPreference"] = .number(JSONNumber(refundPreference)) }
        return .object(members)
    }
}
