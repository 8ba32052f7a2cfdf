public import AppStoreJWS
public import struct Foundation.Date

/// A notification a scenario's event makes the App Store send, before signing: its payload, and the transaction and
/// renewal info it carries (signed, with the notification, when it is sent).
public struct ScenarioNotification: Sendable, Hashable {
    public var notificationUUID: String
    public var type: String
    public var subtype: String?
    /// The customer it is about (the family member, for what Family Sharing gives or takes).
    public var customer: String
    public var bundleIdentifier: String
    public var signedDate: Date
    /// `data.status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked) for a subscription.
    public var status: Int64?
    public var transaction: [String: JSONValue]?
    public var renewalInfo: [String: JSONValue]?
    /// Members of `data` besides the usual ones (`consumptionRequestReason`).
    public var extraData: [String: JSONValue] = [:]

    /// The original transaction it is about, if any.
    public var originalTransactionID: String? { self.transaction?["originalTransactionId"]?.stringValue }

    /// The notification's payload (`ResponseBodyV2DecodedPayload`), its transaction and renewal info given as the
    /// compact JWS `sign` makes of them.
    public func payload(
        appAppleID: Int64?, environment: String, sign: ([String: JSONValue]) throws -> String
    ) throws -> [String: JSONValue] {
        var data: [String: JSONValue] = [
            "bundleId": .string(self.bundleIdentifier),
            "bundleVersion": .string("1"),
            "environment": .string(environment),
        ]
        if let appAppleID { data["appAppleId"] = .number(JSONNumber(appAppleID)) }
        if let status { data["status"] = .number(JSONNumber(status)) }
        if let transaction { data["signedTransactionInfo"] = .string(try sign(transaction)) }
        if let renewalInfo { data["signedRenewalInfo"] = .string(try sign(renewalInfo)) }
        data.merge(self.extraData) { _, new in new }
        var fields: [String: JSONValue] = [
            "notificationType": .string(self.type),
            "notificationUUID": .string(self.notificationUUID),
            "version": .string("2.0"),
            "signedDate": .number(AppStoreTimestamp(self.signedDate).number),
            "data": .object(data),
        ]
        if let subtype { fields["subtype"] = .string(subtype) }
        return fields
    }
}
