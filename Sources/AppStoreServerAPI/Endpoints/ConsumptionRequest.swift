import AppStoreJWS

/// The body of Send Consumption Information (`ConsumptionRequest`, V2: `PUT /inApps/v2/transactions/consumption/…`):
/// what you know about an In-App Purchase a customer asks a refund for, answered after a `CONSUMPTION_REQUEST`
/// notification. Send it only when ``customerConsented`` is `true`.
///
/// ```swift
/// try await client.sendConsumptionInformation(transactionID: id, ConsumptionRequest(
///     customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
///     consumptionPercentage: 25_000, refundPreference: .grantProrated))
/// ```
public struct ConsumptionRequest: Sendable, Hashable {
    /// The largest ``consumptionPercentage``: 100 % in milliunits.
    public static let wholePercentage: Int32 = 100_000

    /// `customerConsented`: whether the customer consented to share consumption data.
    public var customerConsented: Bool
    /// `deliveryStatus`: whether the purchase was delivered and works.
    public var deliveryStatus: ConsumptionDeliveryStatus
    /// `sampleContentProvided`: whether a free sample, trial or description of the content preceded the purchase.
    public var sampleContentProvided: Bool
    /// `consumptionPercentage`: how much of the purchase the customer consumed, in milliunits (0 to 100,000 for
    /// 0–100 %); `nil` to leave it out.
    public var consumptionPercentage: Int32?
    /// `refundPreference`: the outcome you prefer; `nil` to leave it out.
    public var refundPreference: RefundPreference?

    public init(
        customerConsented: Bool,
        deliveryStatus: ConsumptionDeliveryStatus,
        sampleContentProvided: Bool,
        consumptionPercentage: Int32? = nil,
        refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }

    /// The body, or ``AppStoreServerAPIError/Code/invalidConfiguration`` for a percentage outside 0–100,000 (Apple
    /// would refuse it after the request).
    func json() throws(AppStoreServerAPIError) -> JSONValue {
        var members: [String: JSONValue] = [
            "customerConsented": .bool(self.customerConsented),
            "deliveryStatus": .string(self.deliveryStatus.rawValue),
            "sampleContentProvided": .bool(self.sampleContentProvided),
        ]
        if let percentage = self.consumptionPercentage {
            guard (0...Self.wholePercentage).contains(percentage) else {
                throw AppStoreServerAPIError(
                    .invalidConfiguration,
                    "consumptionPercentage must be 0 to 100000 (milliunits of a percent), not \(percentage)")
            }
            members["consumptionPercentage"] = .number(JSONNumber(Int64(percentage)))
        }
        if let refundPreference { members["refundPreference"] = .string(refundPreference.rawValue) }
        return .object(members)
    }
}

extension ConsumptionRequest: Encodable {
    /// The body as the client sends it; throws as the client does for a percentage outside 0–100,000.
    public func encode(to encoder: any Encoder) throws {
        try self.json().encode(to: encoder)
    }
}
