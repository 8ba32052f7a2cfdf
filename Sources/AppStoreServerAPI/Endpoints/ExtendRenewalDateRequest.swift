import AppStoreJWS

/// The body of Extend a Subscription Renewal Date (`ExtendRenewalDateRequest`).
public struct ExtendRenewalDateRequest: Sendable, Hashable {
    /// Days to extend by (`extendByDays`, at most 90).
    public var extendByDays: Int64
    /// Why (`extendReasonCode`).
    public var extendReasonCode: ExtendReasonCode
    /// Your unique id of this request, at most 128 characters (`requestIdentifier`).
    public var requestIdentifier: String

    public init(extendByDays: Int64, extendReasonCode: ExtendReasonCode, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }

    var json: JSONValue {
        .object([
            "extendByDays": .number(JSONNumber(self.extendByDays)),
            "extendReasonCode": .number(JSONNumber(self.extendReasonCode.rawValue)),
            "requestIdentifier": .string(self.requestIdentifier),
        ])
    }
}
